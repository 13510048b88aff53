import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, isCommonPassword, needsRehash, verifyPassword } from './passwords.ts';

/** A hash as the app made them before issue 8 (scrypt N=2^14). */
function legacyScrypt(password: string) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

describe('passwords', () => {
  it('hashes with argon2id at OWASP parameters, a fresh salt each time, and verifies', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse battery', b)).toBe(true);
    expect(needsRehash(a)).toBe(false);
  });

  it('still verifies an old scrypt hash, and asks for it to be re-hashed', async () => {
    const old = legacyScrypt('Secret-123');
    expect(await verifyPassword('Secret-123', old)).toBe(true);
    expect(await verifyPassword('Secret-124', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
  });

  it('refuses a wrong password, another case, and a prefix', async () => {
    const hash = await hashPassword('Secret-123');
    for (const attempt of ['secret-123', 'Secret-12', 'Secret-1234', ''])
      expect(await verifyPassword(attempt, hash)).toBe(false);
  });

  it('treats the same text in another Unicode form as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait'); // é as one code point
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true); // e + combining accent
  });

  it('refuses anything that is not one of our hashes', async () => {
    for (const stored of [
      '',
      'plain-text',
      'bcrypt$2b$10$abc',
      'scrypt$16384$8$1$',
      'scrypt$16384$8$1$c2FsdA$',
      '$argon2id$v=19$m=1,t=1,p=1$x$y',
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });

  it('has a dummy hash that no password is likely to match', async () => {
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('parkit-demo', DUMMY_HASH)).toBe(false);
  });

  it('knows the common passwords it ships, whatever their case', () => {
    for (const p of ['password', 'password1', 'iloveyou', 'Baseball1', 'QWERTYUIOP']) {
      if (p.length >= 8) expect(isCommonPassword(p)).toBe(true);
    }
    expect(isCommonPassword('correct horse battery')).toBe(false);
  });
});

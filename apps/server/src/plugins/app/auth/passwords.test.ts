import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt, a fresh salt each time, and verifies', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse battery', b)).toBe(true);
  });

  it('refuses a wrong password, another case, and a prefix', async () => {
    const hash = await hashPassword('Secret-123');
    for (const attempt of ['secret-123', 'Secret-12', 'Secret-1234', '']) expect(await verifyPassword(attempt, hash)).toBe(false);
  });

  it('treats the same text in another Unicode form as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait'); // é as one code point
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true); // e + combining accent
  });

  it('refuses anything that is not one of our hashes', async () => {
    for (const stored of ['', 'plain-text', 'bcrypt$2b$10$abc', 'scrypt$16384$8$1$', 'scrypt$16384$8$1$c2FsdA$']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });

  it('has a dummy hash that no password is likely to match', async () => {
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('parkit-demo', DUMMY_HASH)).toBe(false);
  });
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { loadConfig } from '../../src/config.ts';
import { loadVapidKeys, VAPID_KEY_FILE } from '../../src/infra/push/vapid.ts';

/** The VAPID key pair: from config, else made once and kept in the data folder (infra/push/README.md). */
describe('VAPID keys', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const folder = () => {
    const d = mkdtempSync(join(tmpdir(), 'parkit-vapid-'));
    dirs.push(d);
    return d;
  };

  it('are made on first start, kept in DATA_DIR (owner-only), and read back the same', () => {
    const dataDir = folder();
    const first = loadVapidKeys({ dataDir });
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(statSync(join(dataDir, VAPID_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys({ dataDir })).toEqual(first);
    expect(loadVapidKeys({ dataDir: folder() })).not.toEqual(first);
  });

  it('come from configuration when given, and the data folder is then left alone', () => {
    const given = webpush.generateVAPIDKeys();
    const dataDir = folder();
    expect(loadVapidKeys({ ...given, dataDir })).toEqual(given);
    expect(() => statSync(join(dataDir, VAPID_KEY_FILE))).toThrow();
  });

  it('are configured both or neither, in base64url of the right lengths', () => {
    const given = webpush.generateVAPIDKeys();
    const base = { NODE_ENV: 'test', DATA_DIR: folder() };
    expect(
      loadConfig({ ...base, VAPID_PUBLIC_KEY: given.publicKey, VAPID_PRIVATE_KEY: given.privateKey }),
    ).toMatchObject({
      VAPID_PUBLIC_KEY: given.publicKey,
    });
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: given.publicKey })).toThrow(/set together/);
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: given.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY must be/,
    );
    expect(() => loadConfig({ ...base, VAPID_SUBJECT: 'someone' })).toThrow(/VAPID_SUBJECT/);
  });
});

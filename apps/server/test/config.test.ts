import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultPoolSize, loadConfig } from '../src/config.ts';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'parkit-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** loadConfig's error message, or a failure when it does not throw. */
function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('loadConfig accepted a bad environment');
}

describe('loadConfig', () => {
  it('has working defaults for development (what npm start asks for)', () => {
    const cfg = loadConfig({ NODE_ENV: 'development', DATA_DIR: tempDir() });
    expect(cfg).toMatchObject({
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: 3000,
      LOG_LEVEL: 'info',
      SEED_DEMO: true,
      DEV_OUTBOX: false,
    });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it('reads and converts every variable', () => {
    const cfg = loadConfig({
      NODE_ENV: 'test',
      PORT: '3321',
      DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/parkit',
      JWT_SECRET: 'y'.repeat(40),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      DEMO_ZONES: '0',
    });
    expect(cfg).toMatchObject({
      PORT: 3321,
      DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/parkit',
      LOG_LEVEL: 'warn',
      SEED_DEMO: false,
      DEMO_ZONES: 0,
    });
    expect(cfg.JWT_SECRET).toBe('y'.repeat(40));
  });

  it('fails listing every bad variable at once', () => {
    const message = configError({
      NODE_ENV: 'staging',
      PORT: 'eighty',
      DATABASE_URL: 'mysql://127.0.0.1/parkit',
      JWT_SECRET: 'short',
      LOG_LEVEL: 'loud',
      SEED_DEMO: 'yes',
      DEMO_ZONES: '-1',
    });
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['NODE_ENV', 'PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'SEED_DEMO', 'DEMO_ZONES']) {
      expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    }
    expect(message).toContain('JWT_SECRET must be at least 32 characters');
    // The bad secret itself is not echoed.
    expect(message).not.toContain('short');
  });

  it('takes DATABASE_READ_URL only beside DATABASE_URL (the embedded database has no replicas)', () => {
    expect(configError({ DATABASE_READ_URL: 'postgres://u@127.0.0.1:7501/parkit' })).toMatch(
      /^ {2}DATABASE_READ_URL: DATABASE_READ_URL needs DATABASE_URL/m,
    );
    const cfg = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://u@127.0.0.1:7500/parkit',
      DATABASE_READ_URL: 'postgres://u@127.0.0.1:7501/parkit',
    });
    expect(cfg.DATABASE_READ_URL).toBe('postgres://u@127.0.0.1:7501/parkit');
  });

  it('sizes the pool from the cores unless DATABASE_POOL_SIZE says, and refuses a size that is not a count', () => {
    expect(defaultPoolSize(1)).toBe(4);
    expect(defaultPoolSize(2)).toBe(5);
    expect(defaultPoolSize(8)).toBe(17);
    expect(loadConfig({ NODE_ENV: 'test' }).DATABASE_POOL_SIZE).toBe(defaultPoolSize(availableParallelism()));
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_POOL_SIZE: '12' }).DATABASE_POOL_SIZE).toBe(12);
    for (const bad of ['0', '2.5', 'ten', '201'])
      expect(configError({ DATABASE_POOL_SIZE: bad })).toMatch(/^ {2}DATABASE_POOL_SIZE: /m);
  });

  it('refuses a port out of range', () => {
    expect(configError({ PORT: '70000' })).toMatch(/^ {2}PORT: /m);
  });

  it('fails in production without JWT_SECRET, and writes no secret file', () => {
    const dir = tempDir();
    expect(configError({ NODE_ENV: 'production', DATA_DIR: dir })).toMatch(
      /^ {2}JWT_SECRET: JWT_SECRET is required when NODE_ENV=production$/m,
    );
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
  });

  it('takes the secret from the environment in production', () => {
    const dir = tempDir();
    const cfg = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'z'.repeat(32), DATA_DIR: dir });
    expect(cfg.JWT_SECRET).toBe('z'.repeat(32));
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
  });

  it('generates the signing secret once into DATA_DIR, private, and reuses it', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }).JWT_SECRET;
    const file = join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: dir }).JWT_SECRET).toBe(first);
    // Another data folder is another installation with its own secret.
    expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: tempDir() }).JWT_SECRET).not.toBe(first);
  });

  // A deployment that forgets a variable fails closed.
  it('is production unless development is asked for: no secret, no start', () => {
    const dir = tempDir();
    expect(configError({ DATA_DIR: dir })).toMatch(
      /^ {2}JWT_SECRET: JWT_SECRET is required when NODE_ENV=production$/m,
    );
    expect(loadConfig({ JWT_SECRET: 'z'.repeat(32), DATA_DIR: dir })).toMatchObject({
      NODE_ENV: 'production',
      DEV_OUTBOX: false,
    });
  });

  it('turns the outbox on only when asked, and only on a loopback address', () => {
    const dir = tempDir();
    expect(loadConfig({ NODE_ENV: 'development', DEV_OUTBOX: 'true', DATA_DIR: dir }).DEV_OUTBOX).toBe(true);
    for (const HOST of ['127.0.0.1', '::1', 'localhost', '127.1.2.3']) {
      expect(loadConfig({ NODE_ENV: 'development', DEV_OUTBOX: 'true', HOST, DATA_DIR: dir }).DEV_OUTBOX).toBe(true);
    }
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'parkit.example.com']) {
      expect(configError({ NODE_ENV: 'development', DEV_OUTBOX: 'true', HOST, DATA_DIR: dir })).toMatch(
        /^ {2}DEV_OUTBOX: DEV_OUTBOX=true needs a loopback HOST/m,
      );
    }
    expect(
      configError({ NODE_ENV: 'production', JWT_SECRET: 'z'.repeat(32), DEV_OUTBOX: 'true', DATA_DIR: dir }),
    ).toMatch(/^ {2}DEV_OUTBOX: /m);
    // A loopback server behind a proxy on the same machine is not local.
    expect(configError({ NODE_ENV: 'development', DEV_OUTBOX: 'true', TRUST_PROXY: 'true', DATA_DIR: dir })).toMatch(
      /^ {2}DEV_OUTBOX: DEV_OUTBOX=true is for a server on this machine/m,
    );
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { databaseUrl } from './postgres.ts';

// Real Chromium from Debian (never downloaded) against the real server on a fresh PGlite (or PostgreSQL), through
// a proxy that checks every API request and answer against the server's OpenAPI document
// (contract/proxy.ts): the browser and the API fixtures reach the proxy on E2E_PORT, the proxy
// the server on E2E_SERVER_PORT.
const port = Number(process.env.E2E_PORT ?? 3210);
const serverPort = Number(process.env.E2E_SERVER_PORT ?? port + 1);
// How long the server may take to start (first start migrates and seeds a new PGlite): longer on a
// machine that runs other work (E2E_SERVER_TIMEOUT, in ms).
const serverTimeout = Number(process.env.E2E_SERVER_TIMEOUT ?? 120_000);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'parkit-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-read this config: keep one folder per run
// E2E_DATABASE=postgres (`npm run test:e2e:pg`): the server on a new PostgreSQL database of its own
// instead (postgres.ts), made before it starts and dropped after the run.
const pgDatabase =
  process.env.E2E_DATABASE === 'postgres'
    ? (process.env.E2E_PG_DATABASE ??= `parkit_e2e_${randomBytes(6).toString('hex')}`)
    : undefined;

export default defineConfig({
  testDir: './specs',
  // Separate runs on one machine must not share a results folder.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  // The run's contract report; fails the run for a violation no test collected. On PostgreSQL, also the
  // check that the server kept its data in the run's database, and that database's drop.
  globalTeardown: './contract/teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    browserName: 'chromium',
    trace: 'retain-on-failure',
    // The app's service worker (docs/architecture.md#offline) downloads every screen's code once it
    // registers: only the specs about it let it run (pwa.spec.ts).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: [
    {
      // The support agent of support.spec.ts is made the way an operator makes one (the CLI), and
      // so is a second operator (after the first, which the agent's command makes), whose owner
      // checks in operator-journey.spec.ts that one operator sees nothing of another's.
      command: [
        ...(pgDatabase ? [`node --import tsx postgres.ts create ${pgDatabase}`] : []),
        'node --import tsx ../apps/server/scripts/support-agent.ts --username e2e_agent --password e2e-agent-pass',
        'node --import tsx ../apps/server/scripts/operator-create.ts --name "Rival Parking" --owner e2e_rival --password e2e-rival-pass',
        'node --import tsx ../apps/server/src/server.ts',
      ].join(' && '),
      url: `http://127.0.0.1:${serverPort}/api/health`,
      timeout: serverTimeout,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(serverPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ...(pgDatabase ? { DATABASE_URL: databaseUrl(pgDatabase) } : {}),
        NODE_ENV: 'development',
        // The specs read codes from the outbox (loopback only).
        DEV_OUTBOX: 'true',
        LOG_LEVEL: 'warn',
        // Every test comes from 127.0.0.1: the per-address sign-in limits would trip.
        ADDRESS_RATE_LIMIT_SCALE: '50',
        // Tiles are not reachable offline; an empty tile URL keeps the map quiet.
        MAP_TILE_URL: process.env.MAP_TILE_URL ?? 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      },
    },
    {
      // The validating proxy: ready once it has read the server's document and answers through it.
      command: 'node --import tsx contract/proxy.ts',
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { CONTRACT_PORT: String(port), CONTRACT_UPSTREAM: `http://127.0.0.1:${serverPort}` },
    },
  ],
});

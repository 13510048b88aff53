import { loadavg } from 'node:os';
import { tokenSigner } from '@parkit/server/src/auth/tokens.ts';
import { printTable } from './table.ts';

/**
 * Access tokens (jose, HS256): what one sign and one check cost on this machine, one at a time in
 * this process. A token's first check runs jose (WebCrypto's HMAC, through a promise); every later
 * request with it is answered from the LRU of verified tokens, so over a token's 15 minutes the
 * first check is paid once. Medians of TOKENS_BENCH_ROUNDS rounds of TOKENS_BENCH_OPS operations,
 * in CPU time of this process (all its threads: WebCrypto's HMAC runs on libuv's pool), which a
 * busy machine moves less than the wall clock.
 */
const ROUNDS = Number(process.env.TOKENS_BENCH_ROUNDS ?? 7);
const OPS = Number(process.env.TOKENS_BENCH_OPS ?? 5000);
const SECRET = 'a-bench-secret-that-is-long-enough-for-hs256-signing';

const claims = (i: number) => ({
  memberId: 1 + i,
  amr: 'pwd' as const,
  authTime: Math.floor(Date.now() / 1000),
  sessionVersion: 0,
});

async function rounds(
  run: (round: number) => Promise<void> | void,
  ops = OPS,
): Promise<{ median: number; low: number; high: number }> {
  await run(-1); // warm-up
  const micros: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = process.cpuUsage();
    await run(r);
    const used = process.cpuUsage(started);
    micros.push((used.user + used.system) / ops);
  }
  micros.sort((a, b) => a - b);
  return { median: micros[Math.floor(micros.length / 2)]!, low: micros[0]!, high: micros.at(-1)! };
}

export async function runTokensBench(): Promise<void> {
  const signer = tokenSigner(SECRET);
  // Fresh tokens for every round of first checks (a new signer remembers none of them).
  const batches: string[][] = [];
  for (let r = -1; r < ROUNDS; r++) {
    const batch: string[] = [];
    for (let i = 0; i < OPS; i++) batch.push(await signer.sign(claims(i + (r + 1) * OPS)));
    batches.push(batch);
  }
  const checker = tokenSigner(SECRET);
  const one = batches[0]![0]!;
  const forged = `${one.slice(0, one.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;

  const rows: Record<string, string | number>[] = [];
  const add = (what: string, m: { median: number; low: number; high: number }) =>
    rows.push({
      what,
      'CPU µs per op': Number(m.median.toFixed(3)),
      'range of the rounds': `${m.low.toFixed(3)}-${m.high.toFixed(3)}`,
      'ops/s': Math.round(1e6 / m.median),
    });

  add(
    'sign',
    await rounds(async () => {
      for (let i = 0; i < OPS; i++) await signer.sign(claims(i));
    }),
  );
  add(
    'verify, first use (jose)',
    await rounds(async (r) => {
      for (const token of batches[r + 1]!) await checker.verify(token);
    }),
  );
  // A hundred times as many: a round of OPS takes less time than one garbage collection.
  if ((await checker.verify(one)) === null) throw new Error('a genuine token was refused');
  add(
    'verify, remembered (LRU, synchronous)',
    await rounds(() => {
      for (let i = 0; i < OPS * 100; i++) {
        const claims = checker.verify(one);
        if (claims === null || claims instanceof Promise) throw new Error('the token was not remembered');
      }
    }, OPS * 100),
  );
  add(
    'verify, forged signature (jose, never remembered)',
    await rounds(async () => {
      for (let i = 0; i < OPS; i++)
        if ((await checker.verify(forged)) !== null) throw new Error('a forged token passed');
    }),
  );
  printTable(
    `access tokens (jose HS256), ${OPS} operations a round, median of ${ROUNDS} rounds; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    rows,
  );
}

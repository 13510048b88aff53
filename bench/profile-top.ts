import { readFileSync } from 'node:fs';

/**
 * `node --import tsx bench/profile-top.ts <file.cpuprofile> [count]`: the functions with the most
 * self time in a profile written by `node --cpu-prof` (the http suite writes one per server with
 * BENCH_CPU_PROF=<folder>), with their share of the samples, and the share per package.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const [file, count = '20'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [count]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const n of profile.nodes) {
  const hits = n.hitCount ?? 0;
  if (!hits) continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  const pkg = !url
    ? functionName
    : url.includes('node_modules/')
      ? where
          .split('/')
          .slice(0, where.startsWith('@') ? 2 : 1)
          .join('/')
      : url.startsWith('node:')
        ? 'node:*'
        : where.split('/').slice(0, 2).join('/');
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
}
const pct = (h: number) => `${((100 * h) / total).toFixed(1)}%`.padStart(6);
console.log(`${file}: ${total} samples\nself time by function:`);
for (const [k, h] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
  console.log(`${pct(h)}  ${k}`);
console.log('self time by package:');
for (const [k, h] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(h)}  ${k}`);

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `node --import tsx bench/profile-summary.ts <dir>`: where a V8 CPU profile (node --cpu-prof, see
 * BENCH_CPU_PROF in bench/parking.ts) spent its samples, by package (node_modules/<name>), our
 * source (apps/server/src/...) or V8/node internals, as a share of the busy (non-idle) time.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: profile-summary.ts <dir with .cpuprofile>');
const file = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()
  .at(-1);
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const group = (n: Node): string => {
  const { url, functionName } = n.callFrame;
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (!url) return `(native) ${functionName || '(program)'}`;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `package ${m[1]}`;
  const ours = /(apps\/server\/src\/[^/]+(?:\/[^/]+)?(?:\/[^/]+)?)/.exec(url);
  if (ours) return ours[1]!;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/').slice(0, 3).join('/')}`;
  return url.replace(/^file:\/\/.*?\/(apps|packages)\//, '$1/');
};
const ms = new Map<string, number>();
p.samples.forEach((id, i) => {
  const g = group(byId.get(id)!);
  ms.set(g, (ms.get(g) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
});
const busy = [...ms].filter(([g]) => g !== '(idle)').reduce((a, [, v]) => a + v, 0);
console.log(`${file}: busy ${busy.toFixed(0)} ms, idle ${(ms.get('(idle)') ?? 0).toFixed(0)} ms`);
for (const [g, v] of [...ms]
  .filter(([g2]) => g2 !== '(idle)')
  .sort((a, b) => b[1] - a[1])
  .slice(0, 25)) {
  console.log(`${((100 * v) / busy).toFixed(1).padStart(5)}%  ${v.toFixed(0).padStart(6)} ms  ${g}`);
}

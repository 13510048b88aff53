// Fails when relative imports form a cycle anywhere in the TypeScript sources (docs/conventions.md#imports-flow-one-way: no
// cycles). Runs with `npm run lint`. Type-only imports count too: a cycle of types is still a
// tangle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = ['apps/web/src', 'apps/server/src', 'packages/contract/src'];
const root = resolve(new URL('..', import.meta.url).pathname);

function files(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(f) ? [p] : [];
  });
}

const graph = new Map();
for (const r of ROOTS) {
  for (const file of files(join(root, r))) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]/g)].map((m) =>
      resolve(dirname(file), m[1]),
    );
    graph.set(file, deps);
  }
}

const state = new Map(); // 1 visiting, 2 done
const cycles = [];
function visit(node, stack) {
  state.set(node, 1);
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    if (!graph.has(dep)) continue;
    if (state.get(dep) === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep].map((f) => relative(root, f)));
    else if (!state.has(dep)) visit(dep, stack);
  }
  stack.pop();
  state.set(node, 2);
}
for (const node of graph.keys()) if (!state.has(node)) visit(node, []);

if (cycles.length > 0) {
  console.error(`Import cycles (${cycles.length}):`);
  for (const c of cycles) console.error(`  ${c.join(' -> ')}`);
  process.exit(1);
}
console.log(`No import cycles in ${graph.size} files.`);

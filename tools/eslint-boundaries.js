// docs/conventions.md#imports-flow-one-way: imports flow one way (contract ← server; contract ← web lib/components ← features ←
// app) and no feature imports another. A small local rule instead of eslint-plugin-import-x,
// whose resolver needs per-platform binaries the registry here does not carry (npm ci fails).
import { dirname, resolve, sep } from 'node:path';

/** @param {{ zones: { target: string, from: string[], except?: string[], message: string }[] }} options */
function check(context, node, spec) {
  if (typeof spec !== 'string' || !spec.startsWith('.')) return;
  const file = context.filename;
  const target = resolve(dirname(file), spec);
  const root = context.cwd;
  for (const zone of context.options[0].zones) {
    const inside = (p, dir) => p === resolve(root, dir) || p.startsWith(resolve(root, dir) + sep);
    if (!inside(file, zone.target)) continue;
    if (!zone.from.some((f) => inside(target, f))) continue;
    if ((zone.except ?? []).some((e) => inside(target, e))) continue;
    context.report({ node, message: `${zone.message} (${spec})` });
  }
}

/**
 * `layers`: the server's folders in one order, lowest first. A file may import its own folder and
 * the folders before it, never one after it, so no loop between folders can form (a loop always
 * has an import that runs back up). An entry that is a list holds peers: folders that import
 * each other not at all. A domain (`domains`) is entered through its index.ts only.
 * @param {{ root: string, order: (string | string[])[], domains: string[] }} options
 */
function checkLayers(context, node, spec) {
  if (typeof spec !== 'string' || !spec.startsWith('.')) return;
  const { root, order, domains } = context.options[0];
  const base = resolve(context.cwd, root);
  const unitOf = (p) => (p.startsWith(base + sep) ? p.slice(base.length + 1).split(sep)[0] : null);
  const rank = (unit) => order.findIndex((entry) => (Array.isArray(entry) ? entry.includes(unit) : entry === unit));
  const file = context.filename;
  const target = resolve(dirname(file), spec);
  const from = unitOf(file);
  const to = unitOf(target);
  if (from === null || to === null) return;
  const [i, j] = [rank(from), rank(to)];
  if (i < 0 || j < 0) {
    const missing = i < 0 ? from : to;
    context.report({
      node,
      message: `${root}/${missing} is not in the server's order (eslint.config.js): add it where it belongs (${spec})`,
    });
    return;
  }
  if (from === to) return;
  if (i === j) {
    context.report({
      node,
      message: `${from} and ${to} are peers in the server's order: neither imports the other (${spec})`,
    });
  } else if (j > i) {
    context.report({
      node,
      message: `${from} may not import ${to}: ${to} comes after it in the server's order (eslint.config.js), and an import back up is how a loop between folders starts (${spec})`,
    });
  }
  if (domains.includes(to) && target !== resolve(base, to, 'index.ts')) {
    context.report({ node, message: `Import the ${to} domain through ${to}/index.ts, not a file inside it (${spec})` });
  }
}

function importsOf(context, check) {
  const withSource = (node) => node.source && check(context, node.source, node.source.value);
  return {
    ImportDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ImportExpression: (node) => node.source.type === 'Literal' && check(context, node.source, node.source.value),
  };
}

export default {
  rules: {
    'restricted-paths': {
      meta: { type: 'problem', schema: [{ type: 'object' }] },
      create: (context) => importsOf(context, check),
    },
    layers: {
      meta: { type: 'problem', schema: [{ type: 'object' }] },
      create: (context) => importsOf(context, checkLayers),
    },
  },
};

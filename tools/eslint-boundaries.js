// STYLE.md: imports flow one way (contract ← server; contract ← web lib/components ← features ←
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

export default {
  rules: {
    'restricted-paths': {
      meta: { type: 'problem', schema: [{ type: 'object' }] },
      create(context) {
        const withSource = (node) => node.source && check(context, node.source, node.source.value);
        return {
          ImportDeclaration: withSource,
          ExportNamedDeclaration: withSource,
          ExportAllDeclaration: withSource,
          ImportExpression: (node) => node.source.type === 'Literal' && check(context, node.source, node.source.value),
        };
      },
    },
  },
};

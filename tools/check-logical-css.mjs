// Fails when the web app's classes or CSS place things by left and right instead of by the start
// and end of a line (a later right-to-left language, Arabic or Urdu, should cost no
// layout work). Runs with `npm run lint`; `--selftest` checks the patterns themselves.
//
// - In .ts/.tsx files, a Tailwind class with a side in its name: ml-/mr-/pl-/pr-, left-/right-,
//   border-l/-r, rounded-l/-r/-tl/-tr/-bl/-br, scroll-m/p l/r, text-left/right, float-/clear-
//   left/right (with any variant prefix, `md:pl-4`, and negative, `-mr-2`). Use ms-/me-/ps-/pe-,
//   inset-s-/inset-e-, border-s/-e, rounded-s/-e/-ss/-se/-es/-ee, text-start/end instead.
// - In .css files, margin-/padding-/border-left/right, left:/right: and text-align or float of
//   left/right. Use margin-inline-start, inset-inline-start and the like.
// A line that must stay physical (a map library's own placement) ends with `logical-css: allow`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const VALUE = String.raw`(?:-?\d+(?:\.\d+)?(?:\/\d+)?|auto|px|full|\[[^\]\s]+\]|\([^)\s]+\)|xs|sm|md|lg|xl|[2-4]xl|none)`;
const SIDED = String.raw`(?:m[lr]|p[lr]|left|right|scroll-[mp][lr]|rounded-(?:[lr]|[tb][lr]))`;
const CLASS = new RegExp(
  String.raw`(?<=^|[\s"'\x60:!])-?(?:${SIDED}-${VALUE}|border-[lr](?:-[\w\[\]/#.%-]+)?|rounded-(?:[lr]|[tb][lr])|text-(?:left|right)|(?:float|clear)-(?:left|right))(?=$|[\s"'\x60])`,
  'g',
);
const CSS =
  /\b(?:(?:margin|padding|border)-(?:left|right)\b|(?<![-\w])(?:left|right)\s*:|(?:text-align|float|clear)\s*:\s*(?:left|right)\b)/g;

export function findings(file, text) {
  const pattern = file.endsWith('.css') ? CSS : CLASS;
  const out = [];
  text.split('\n').forEach((line, i) => {
    if (line.includes('logical-css: allow')) return;
    for (const m of line.matchAll(pattern))
      out.push(`${file}:${i + 1}: "${m[0].trim()}" is physical: use its logical form`);
  });
  return out;
}

function selftest() {
  const bad = [
    'ml-2',
    'md:pl-4',
    '-mr-2',
    'left-1/2',
    'right-0',
    'text-left',
    'border-l',
    'border-r-2',
    'rounded-r-xl',
    'rounded-tl-lg',
    'pl-[3px]',
    'float-right',
  ];
  const good = [
    'ms-2',
    'md:ps-4',
    '-me-2',
    'inset-s-3',
    'inset-e-0',
    'text-start',
    'border-s',
    'rounded-e-xl',
    'inset-x-0',
    'left-aligned',
    'left',
    'mx-auto',
    'pl',
  ];
  const wrong = [
    ...bad.filter((c) => findings('x.tsx', `<a className="a ${c} b" />`).length !== 1).map((c) => `missed ${c}`),
    ...good.filter((c) => findings('x.tsx', `<a className="a ${c} b" />`).length !== 0).map((c) => `refused ${c}`),
    ...['margin-left: 0', 'left: 0', 'text-align: right', 'border-right: 1px']
      .filter((c) => findings('x.css', `a { ${c}; }`).length !== 1)
      .map((c) => `missed ${c}`),
    ...['margin-inline-start: 0', 'inset-inline-end: 0', 'text-align: start']
      .filter((c) => findings('x.css', `a { ${c}; }`).length !== 0)
      .map((c) => `refused ${c}`),
  ];
  if (wrong.length > 0) {
    console.error(`check-logical-css selftest:\n${wrong.join('\n')}`);
    process.exit(1);
  }
  console.log('check-logical-css selftest: ok');
}

if (process.argv.includes('--selftest')) selftest();
else {
  const files = execFileSync('git', ['ls-files', 'apps/web/src'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(tsx?|css)$/.test(f) && !/\.test\.tsx?$/.test(f));
  const all = files.flatMap((f) => findings(f, readFileSync(resolve(root, f), 'utf8')));
  if (all.length > 0) {
    console.error(all.join('\n'));
    console.error(`${all.length} physical left/right placement(s): use logical classes (tools/check-logical-css.mjs).`);
    process.exit(1);
  }
  console.log(`No physical left/right placement in ${files.length} files.`);
}

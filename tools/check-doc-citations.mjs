// Fails when a source file or doc cites a document that is not in the repository (a
// clone explains itself), or a docs/ file or heading that does not exist. Runs with `npm run lint`.
//
// - Refused: the first design notes by their file names, the client spec's numbered sections
//   ("section N", "§ N") and its file; cite the heading of docs/ that holds the rule instead
//   (tools/rewrite-doc-citations.mjs rewrites the old forms).
// - Checked: every `docs/….md` a tracked file names exists, and every `#anchor` after it (also in
//   a list: "docs/product.md#screens, #states and #errors") is a heading of that file, as GitHub
//   makes anchors; in docs and READMEs, every in-page link `](#anchor)` is a heading of the page.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const SELF = new Set(['tools/check-doc-citations.mjs', 'tools/rewrite-doc-citations.mjs', 'package-lock.json']);

const OUTSIDE = [
  [/\b(?:DESIGN|STYLE|STACK)\.md\b/, 'a design note that is not in the repository: cite a docs/ heading'],
  [/parkit-spec/, 'the spec is not in the repository: cite docs/product.md'],
  [/\b[Ss]ections? \d|§\s*\d|\bspec §/, 'a numbered section of a document not in the repository: cite a docs/ heading'],
];

const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorCache = new Map();
/** The anchors of a markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const seen = new Map();
  const set = new Set();
  let fenced = false;
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    set.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, set);
  return set;
}

// docs/x.md, then #a, then more anchors in a list (", #b", " and #c", also after a comment's line break).
const CITATION =
  /(?<![\w./-])(docs\/[\w./-]+?\.md)((?:#[\w-]+)?)((?:(?:,|,? and| and)(?:\s*\n\s*(?:\*|\/\/)?)?\s*#[\w-]+)*)/g;

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter(
    (f) =>
      f && !SELF.has(f) && /\.(ts|tsx|js|mjs|cjs|md|sql|json|yaml|yml|html|css)$/.test(f) && existsSync(join(root, f)),
  );

const problems = [];
const lineOf = (text, index) => text.slice(0, index).split('\n').length;

for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  text.split('\n').forEach((line, i) => {
    for (const [pattern, why] of OUTSIDE)
      if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${why}: ${line.trim()}`);
  });
  for (const m of text.matchAll(CITATION)) {
    const [, target, first, rest] = m;
    const at = `${file}:${lineOf(text, m.index)}`;
    if (!existsSync(join(root, target))) {
      problems.push(`${at}: ${target} does not exist`);
      continue;
    }
    const wanted = [first, ...[...rest.matchAll(/#[\w-]+/g)].map((a) => a[0])].filter(Boolean).map((a) => a.slice(1));
    for (const anchor of wanted)
      if (!anchors(target).has(anchor)) problems.push(`${at}: ${target} has no heading #${anchor}`);
  }
  if (file.endsWith('.md')) {
    for (const m of text.matchAll(/\]\(#([\w-]+)\)/g)) {
      if (!anchors(file).has(m[1])) problems.push(`${file}:${lineOf(text, m.index)}: no heading #${m[1]} on this page`);
    }
  }
}

if (problems.length > 0) {
  console.error(
    `Citations that a clone cannot follow (docs/conventions.md#comments-and-docs):\n${problems.join('\n')}`,
  );
  process.exit(1);
}

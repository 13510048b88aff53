// Rewrites citations of documents that are not in the repository into citations of docs/ headings
// (a clone explains itself). The old citations named DESIGN.md, STYLE.md and STACK.md
// (the first design notes) and "spec section N" (the numbered sections of the client's spec, now
// docs/product.md). Idempotent: a second run changes nothing. tools/check-doc-citations.mjs (run by
// `npm run lint`) fails on any that is left.
//
//   node tools/rewrite-doc-citations.mjs           rewrite every tracked text file
//   node tools/rewrite-doc-citations.mjs --dry     only list what would change
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const dry = process.argv.includes('--dry');

const PRODUCT = 'docs/product.md';
const ARCHITECTURE = 'docs/architecture.md';
const CONVENTIONS = 'docs/conventions.md';

/** The spec's numbered sections and their home in docs/product.md. */
const SPEC = {
  1: 'who-uses-it',
  2: 'screens',
  3: 'stored-data',
  4: 'states',
  5: 'validation',
  6: 'roles',
  7: 'api-calls',
  8: 'errors',
  9: 'formats-and-limits',
};
/** Section 6 was also cited for the refresh cookie, which the spec never shows: that is sign-in. */
const specAnchor = (n, line) => (n === 6 && /refresh|renew|expired token/i.test(line) ? 'sign-in' : SPEC[n]);

/** DESIGN.md's sections and their homes. */
const DESIGN = {
  1: `${PRODUCT}#how-we-read-the-spec`,
  2: `${ARCHITECTURE}#money`,
  3: `${PRODUCT}#sign-in`,
  4: `${ARCHITECTURE}#api-conventions`,
  5: `${ARCHITECTURE}#the-database-pglite-and-postgresql`,
  6: `${PRODUCT}#placeholders-made-real`,
};
const designHome = (n, line) => (n === 2 && /\bjobs?\b/i.test(line) ? `${ARCHITECTURE}#background-jobs` : DESIGN[n]);

/** STYLE.md had no numbered sections: the rule a comment names picks the heading. */
function styleHome(line) {
  if (/import|cycle|barrel|one way \(/i.test(line)) return `${CONVENTIONS}#imports-flow-one-way`;
  if (/console|test/i.test(line)) return `${CONVENTIONS}#tests`;
  if (/plugin|routes/i.test(line)) return `${ARCHITECTURE}#the-servers-layers-and-domains`;
  return CONVENTIONS;
}
/** STACK.md's findings about libraries live in one section. */
const STACK = `${ARCHITECTURE}#libraries-and-their-traps`;

const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The line of `text` that holds `index`. */
function lineAt(text, index) {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end);
}

// A list of section numbers, also across a comment's line break: "2, 4, 5", "2 and 4", "5\n * and 9".
const BREAK = String.raw`(?:\s*\n\s*(?:\*|\/\/)?)?\s*`;
const LIST = String.raw`\d(?:(?:,|,?${BREAK}and)${BREAK}\d)*`;

export function rewrite(text) {
  let out = text;
  // "The spec's keys (section 3) with DESIGN.md's meanings": one home for both.
  out = out.replace(/ \(section 3\) with DESIGN\.md's meanings/g, ` with their meanings (${PRODUCT}#stored-data)`);
  out = out.replace(/DESIGN\.md's meanings/g, `the meanings of ${PRODUCT}#stored-data`);
  // "DESIGN.md section N".
  out = out.replace(/DESIGN\.md section (\d)/g, (m, n, at, all) => designHome(Number(n), lineAt(all, at)));
  // STYLE.md "A heading" (the quote may span a comment's line break).
  // A line break inside the quote moves before the citation, so that no line is lost.
  out = out.replace(/ ?STYLE\.md "([^"]*)"/g, (m, heading) => {
    const lineBreak = /\n\s*(?:\*|\/\/)?\s*/.exec(heading);
    const words = heading.replace(/\n\s*(?:\*|\/\/)?\s*/g, ' ');
    return `${lineBreak ? lineBreak[0] : m.startsWith(' ') ? ' ' : ''}${CONVENTIONS}#${slug(words)}`;
  });
  out = out.replace(/STYLE\.md/g, (m, at, all) => styleHome(lineAt(all, at)));
  out = out.replace(/\(STACK\.md trap\)/g, `(a trap in ${STACK})`);
  out = out.replace(/STACK\.md/g, STACK);
  // "Spec section 9's 'DD MMM YYYY'": the thing named, then where it is written.
  // "Spec section 9's 'DD MMM YYYY'" → "The 'DD MMM YYYY' of docs/product.md#formats-and-limits".
  out = out.replace(
    /\b([Ss])pec section (\d)'s ('[^']*'|hh:mm A|[\w -]+?(?=[).,;:]| \())/g,
    (m, s, n, what, at, all) =>
      `${s === 'S' ? 'T' : 't'}he ${what} of ${PRODUCT}#${specAnchor(Number(n), lineAt(all, at))}`,
  );
  // "spec section 7 helpers, section 8 error catalogue".
  out = out.replace(
    /spec section 7 helpers, section 8 error catalogue/g,
    `the helpers of ${PRODUCT}#api-calls, the error catalogue of ${PRODUCT}#errors`,
  );
  // "spec section N", "spec sections N, M and K", and a bare "section N" (every bare one cited the spec).
  out = out.replace(new RegExp(String.raw`\b(?:[Ss]pec )?sections? (${LIST})`, 'g'), (m, list, at, all) => {
    const line = lineAt(all, at);
    let first = true;
    return list.replace(/\d/g, (n) => {
      const anchor = `#${specAnchor(Number(n), line)}`;
      if (!first) return anchor;
      first = false;
      return `${PRODUCT}${anchor}`;
    });
  });
  return out;
}

function trackedTextFiles() {
  const skip = new Set(['package-lock.json', 'tools/rewrite-doc-citations.mjs', 'tools/check-doc-citations.mjs']);
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !skip.has(f) && /\.(ts|tsx|js|mjs|cjs|md|sql|json|yaml|yml|html|css)$/.test(f));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let changed = 0;
  for (const file of trackedTextFiles()) {
    const path = join(root, file);
    let before;
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      continue; // deleted in the work tree
    }
    const after = rewrite(before);
    if (after === before) continue;
    changed++;
    if (dry) {
      const a = before.split('\n');
      const b = after.split('\n');
      for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) console.log(`${file}:${i + 1}: ${b[i].trim()}`);
    } else {
      writeFileSync(path, after);
      console.log(`rewrote ${file}`);
    }
  }
  console.log(`${changed} file(s) ${dry ? 'would change' : 'changed'}`);
}

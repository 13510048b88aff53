/** Prints rows as an aligned text table (numbers right-aligned), under a title. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) {
    console.log('  (no rows)');
    return;
  }
  const columns = Object.keys(rows[0]!);
  const cell = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: (string | number | undefined)[]) =>
    values
      .map((v, i) => (typeof v === 'number' ? cell(v).padStart(widths[i]!) : cell(v).padEnd(widths[i]!)))
      .join(' | ');
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(columns.map((c) => r[c])));
}

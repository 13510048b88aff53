import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** The JSON Schema written from the CDS documents (src/opendata/schema), compiled once. */
const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../src/opendata/schema/${file}`, import.meta.url), 'utf8')) as { $id: string };
const schema = read('cds-curbs.schema.json');
const eventsSchema = read('cds-events.schema.json');
const metricsSchema = read('cds-metrics.schema.json');
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: false });
ajv.addSchema(schema);
ajv.addSchema(eventsSchema);
ajv.addSchema(metricsSchema);

export type CdsAnswer =
  'ZonesAnswer' | 'ZoneAnswer' | 'PoliciesAnswer' | 'PolicyAnswer' | 'AreasAnswer' | 'SpacesAnswer';
export type CdsEventsAnswer = 'EventsAnswer' | 'StatusAnswer';

/** Fails with every error when `body` is not a valid CDS answer of this kind. */
export function expectCds(kind: CdsAnswer, body: unknown): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${kind}`);
  if (!validate) throw new Error(`no schema ${kind}`);
  const ok = validate(body);
  expect(ok ? [] : validate.errors, `${kind} answer`).toEqual([]);
}

/** The same for the Events API's answers (cds-events.schema.json). */
export function expectCdsEvents(kind: CdsEventsAnswer, body: unknown): void {
  const validate = ajv.getSchema(`${eventsSchema.$id}#/$defs/${kind}`);
  if (!validate) throw new Error(`no schema ${kind}`);
  const ok = validate(body);
  expect(ok ? [] : validate.errors, `${kind} answer`).toEqual([]);
}

/**
 * Reads a Metrics CSV (no quoted cells: ParkIt's cells hold none of , " or line breaks) into
 * objects, empty cells null and numeric ones numbers, and validates each row as `kind`.
 */
export function expectCdsCsv(kind: 'Session' | 'Aggregate', csv: string): Record<string, unknown>[] {
  const [head, ...lines] = csv.split('\r\n').filter(Boolean);
  const columns = head!.split(',');
  const validate = ajv.getSchema(`${metricsSchema.$id}#/$defs/${kind}`);
  if (!validate) throw new Error(`no schema ${kind}`);
  return lines.map((line) => {
    const cells = line.split(',');
    const row = Object.fromEntries(
      columns.map((c, i) => {
        const v = cells[i] ?? '';
        return [c, v === '' ? null : /^-?[0-9]+(\.[0-9]+)?$/.test(v) && c !== 'date' ? Number(v) : v];
      }),
    );
    const ok = validate(row);
    expect(ok ? [] : validate.errors, `${kind} row`).toEqual([]);
    return row;
  });
}

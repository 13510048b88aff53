import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** The JSON Schema written from the CDS documents (src/opendata/schema), compiled once. */
const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../src/opendata/schema/${file}`, import.meta.url), 'utf8')) as { $id: string };
const schema = read('cds-curbs.schema.json');
const eventsSchema = read('cds-events.schema.json');
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: false });
ajv.addSchema(schema);
ajv.addSchema(eventsSchema);

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

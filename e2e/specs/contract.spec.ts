import type { Document } from 'openapi-backend';
import { ContractValidator, type Exchange } from '../contract/validator.ts';
import { expect, test } from '../fixtures.ts';

/**
 * The contract validator (contract/validator.ts) itself, on the document this server serves: it
 * must see each kind of disagreement, or the run's green would mean nothing.
 */
let contract: ContractValidator;
test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL });
  contract = await ContractValidator.load((await (await api.get('/api/docs/json')).json()) as Document);
  await api.dispose();
});

const hours = (fields: Record<string, unknown>) =>
  JSON.stringify({
    Open: '08:00',
    Close: '20:00',
    TimeZone: 'America/Chicago',
    SlotMinutes: 30,
    MaxDays: 7,
    ...fields,
  });
const json = { 'content-type': 'application/json; charset=utf-8' };
const exchange = (x: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: '/api/Support/Hours',
  requestHeaders: {},
  requestBody: Buffer.alloc(0),
  status: 200,
  responseHeaders: json,
  responseBody: Buffer.from(hours({})),
  ...x,
});
const violations = (x: Partial<Exchange>) => contract.check(exchange(x)).violations;

test('the contract validator passes what the document says and names each disagreement', () => {
  const ok = contract.check(exchange({}));
  expect(ok.operation).toBe('GET /api/Support/Hours (getSupportHours)');
  expect(ok.violations).toEqual([]);

  // A status the operation does not declare.
  expect(violations({ status: 202 })).toEqual(['status 202 is not declared (the operation declares 200, 429, 500)']);
  // A field of the wrong type, an unknown field, a missing one.
  expect(violations({ responseBody: Buffer.from(hours({ SlotMinutes: '30' })) })).toEqual([
    'response body/SlotMinutes must be integer (is "30")',
  ]);
  expect(violations({ responseBody: Buffer.from(hours({ Extra: 1 })) })).toEqual([
    'response body must NOT have additional properties: "Extra"',
  ]);
  expect(violations({ responseBody: Buffer.from(hours({ MaxDays: undefined })) })).toEqual([
    "response body must have required property 'MaxDays'",
  ]);
  // Not JSON, or JSON where the document declares a file.
  expect(violations({ responseBody: Buffer.from('{"Open":') })[0]).toMatch(/^the application\/json body is not JSON/);
  expect(violations({ url: '/api/Parking/Sessions.csv' })).toEqual([
    'content-type application/json where status 200 declares text/csv',
  ]);
  expect(
    violations({
      url: '/api/Parking/Sessions.csv',
      responseHeaders: { 'content-type': 'text/csv; charset=utf-8' },
      responseBody: Buffer.from('a,b\n'),
    }),
  ).toEqual([]);
  expect(
    violations({
      url: '/api/Parking/Session/1/Receipt.pdf',
      responseHeaders: { 'content-type': 'application/pdf' },
      responseBody: Buffer.from('%PDF-'),
    }),
  ).toEqual([]);

  // A request the document refuses: its 4xx is expected, a 2xx is a violation.
  const refused = { url: '/api/Parking/Zones/abc' };
  expect(violations({ ...refused, status: 400, responseBody: Buffer.from('{"message":"Bad"}') })).toEqual([]);
  expect(violations({ ...refused, status: 200, responseBody: Buffer.from('{}') })[0]).toMatch(
    /^the server accepted \(200\) a request the document refuses: request\/path\/id must be integer/,
  );
  // A path the document does not have may only be "not found".
  expect(violations({ url: '/api/Nowhere', status: 404 })).toEqual([]);
  expect(violations({ url: '/api/Nowhere', status: 200 })).toEqual([
    'no operation of the document matches GET /api/Nowhere, yet the server answered 200',
  ]);
  // A body on an operation that takes none (the web's `{}` says nothing and passes).
  const read = {
    method: 'POST',
    url: '/api/Support/Console/Conversations/1/Read',
    requestHeaders: json,
    responseBody: Buffer.from('{"message":"ok"}'),
  };
  expect(violations({ ...read, requestBody: Buffer.from('{}') })).toEqual([]);
  expect(violations({ ...read, requestBody: Buffer.from('{"MemberId":1}') })[0]).toMatch(
    /a application\/json body where the operation takes none/,
  );
});

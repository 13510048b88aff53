import { localServer } from './local-server.ts';

/** One message the stand-in got: the request's path and Basic credentials, the form, its answer. */
export interface SmsHit {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
  status: number;
}

/**
 * A stand-in for Twilio's Messages API on this machine (an ephemeral port), speaking its documented
 * protocol: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To/From/Body, HTTP
 * Basic; 201 with the Message resource, or an error resource ({ code, message, status }). `answer`
 * decides each request's status from its To and how many times that To and Body came before, after
 * `delayMs`. Every request is kept in `hits`.
 */
export async function twilioGateway(
  answer: (to: string, triesBefore: number) => number,
  delayMs = 0,
): Promise<{ url: string; hits: SmsHit[]; close: () => Promise<void> }> {
  const hits: SmsHit[] = [];
  const server = await localServer((req, raw) => {
    const form = Object.fromEntries(new URLSearchParams(raw));
    const before = hits.filter((h) => h.form.To === form.To && h.form.Body === form.Body).length;
    const status = answer(form.To ?? '', before);
    hits.push({ path: req.url ?? '/', authorization: req.headers.authorization, form, status });
    const body =
      status === 201
        ? { sid: `SM${String(hits.length).padStart(32, '0')}`, status: 'queued', to: form.To, body: form.Body }
        : {
            code: status === 400 ? 21211 : 20500,
            message: status === 400 ? 'Invalid To Phone Number' : 'Error',
            status,
          };
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }, delayMs);
  return { ...server, hits };
}

/** What reached the gateway and was taken, once per To and Body, in arrival order. */
export const taken = (hits: SmsHit[]) => {
  const seen = new Set<string>();
  return hits
    .filter((h) => h.status < 300)
    .filter((h) => {
      const k = `${h.form.To}|${h.form.Body}`;
      return seen.has(k) ? false : (seen.add(k), true);
    })
    .map((h) => h.form);
};

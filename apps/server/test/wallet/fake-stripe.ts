import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server answering the few Stripe API calls the `stripe` provider makes, with the
 * response shapes of Stripe's API reference (https://docs.stripe.com/api): customers, setup
 * intents, payment methods (retrieve, detach), payment intents and refunds, including a card
 * decline (402, error.type 'card_error'), a refund above what is left (400) and Idempotency-Key replay.
 * A PaymentMethod created here (POST /v1/payment_methods, what Stripe.js's createPaymentMethod does
 * for a typed card or the Express Checkout Element) belongs to no customer and is charged once: a
 * second PaymentIntent with it is refused as Stripe refuses it (400 invalid_request_error), unless
 * the first saved it (https://docs.stripe.com/payments/save-during-payment: `customer` and
 * `setup_future_usage` attach it to that customer when the payment succeeds); an off-session
 * PaymentIntent of a customer it is not attached to is refused too. A customer deleted
 * (https://docs.stripe.com/api/customers/delete: DELETE /v1/customers/{id}, which removes its card
 * details) reads back as `deleted: true`, its cards are detached and can never be charged again,
 * and a second delete is a 404 (resource_missing). Stripe itself is not reachable here.
 */
export interface FakeStripe {
  url: string;
  requests: {
    method: string;
    path: string;
    form: URLSearchParams;
    idempotencyKey: string | undefined;
    auth: string | undefined;
  }[];
  /**
   * A slow Stripe: the next POST or DELETE to `path` waits (after it arrived: `arrived`) until `release()`,
   * as a provider that takes its time to answer.
   */
  hold(path: string): { arrived: Promise<void>; release(): void };
  /**
   * A network failure: every `method` request to `path` is cut (the connection closed, no answer)
   * until the returned function is called, the client's own retries included (the provider answers
   * 'unavailable'). The request is still listed in `requests`, but nothing is stored under its
   * Idempotency-Key: a later retry with the same key is answered as a first request.
   */
  cut(method: string, path: string): () => void;
  close(): Promise<void>;
}

const CARDS: Record<
  string,
  {
    brand: string;
    last4: string;
    decline?: { code: string; decline_code: string; message: string };
    /** Declined when its SetupIntent is confirmed too (Stripe's 4000 0000 0000 0002), so never attached. */
    declinesSetup?: boolean;
  }
> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: {
    brand: 'visa',
    last4: '0002',
    decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    declinesSetup: true,
  },
  // "Decline after attaching" (4000 0000 0000 0341): its SetupIntent succeeds, its charges fail.
  pm_card_chargeCustomerFail: {
    brand: 'visa',
    last4: '0341',
    decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    decline: {
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
};

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripe['requests'] = [];
  const replays = new Map<string, { status: number; json: unknown }>();
  let n = 0;
  const customerOf = new Map<string, string>();
  const setupCustomer = new Map<string, string>();
  /** Each SetupIntent as Stripe shows it after confirmation: succeeded with its card, or its last error. */
  const setupState = new Map<
    string,
    { status: string; payment_method: string | null; last_setup_error: Record<string, unknown> | null }
  >();
  /** Succeeded PaymentIntents: what they took and what was refunded from them. */
  const intents = new Map<string, { amount: number; refunded: number }>();
  /** PaymentMethods created from a card token (Stripe.js), with the test card each stands for. */
  const madePms = new Map<string, string>();
  /** Created PaymentMethods a PaymentIntent used while no customer held them: never usable again. */
  const spent = new Set<string>();
  const cardOf = (id: string) => CARDS[id] ?? CARDS[madePms.get(id) ?? ''];
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>();
  const cuts = new Set<string>();
  /** Customers created here, and whether each was deleted since. */
  const customers = new Map<string, { deleted: boolean }>();
  const server: Server = createServer(async (req, res) => {
    const form = new URLSearchParams(await body(req));
    const path = (req.url ?? '').split('?')[0] ?? '';
    const held = req.method === 'POST' || req.method === 'DELETE' ? holds.get(path) : undefined;
    if (held) {
      holds.delete(path);
      held.arrived();
      await held.released;
    }
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? '', path, form, idempotencyKey, auth: req.headers.authorization });
    if (cuts.has(`${req.method} ${path}`)) return req.socket.destroy();
    const send = (status: number, json: unknown) => {
      if (idempotencyKey && req.method === 'POST') replays.set(idempotencyKey, { status, json });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
      res.end(JSON.stringify(json));
    };
    if (idempotencyKey && replays.has(idempotencyKey)) {
      const r = replays.get(idempotencyKey)!;
      res.writeHead(r.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return res.end(JSON.stringify(r.json));
    }
    const created = Math.floor(Date.now() / 1000);
    if (req.method === 'POST' && path === '/v1/customers') {
      const id = `cus_fake${++n}`;
      customers.set(id, { deleted: false });
      return send(200, {
        id,
        object: 'customer',
        created,
        livemode: false,
        metadata: Object.fromEntries([...form].filter(([k]) => k.startsWith('metadata'))),
      });
    }
    const cus = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (cus && (req.method === 'DELETE' || req.method === 'GET')) {
      const id = decodeURIComponent(cus[1]!);
      const c = customers.get(id);
      // Retrieving a deleted customer answers its id and `deleted: true`; deleting it again is a 404.
      if (!c || (c.deleted && req.method === 'DELETE'))
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'id',
            message: `No such customer: '${id}'`,
          },
        });
      if (c.deleted || req.method === 'DELETE') {
        c.deleted = true;
        // Its cards go with it: detached, so never charged again (as a detached PaymentMethod).
        for (const [pm, owner] of customerOf)
          if (owner === id) {
            customerOf.delete(pm);
            spent.add(pm);
          }
        return send(200, { id, object: 'customer', deleted: true });
      }
      return send(200, { id, object: 'customer', created, livemode: false, metadata: {} });
    }
    if (req.method === 'POST' && path === '/test/confirm_setup') {
      // What Stripe.js does in the browser: confirming the SetupIntent verifies the card and, unless
      // the bank declines it, attaches it to the intent's customer.
      const pmId = form.get('payment_method') ?? '';
      const siId = form.get('setup_intent') ?? '';
      const card = CARDS[pmId];
      if (card?.declinesSetup && card.decline) {
        const error = {
          type: 'card_error',
          ...card.decline,
          message: card.decline.message,
          payment_method: { id: pmId, object: 'payment_method', type: 'card' },
        };
        setupState.set(siId, { status: 'requires_payment_method', payment_method: null, last_setup_error: error });
        return send(402, { error: { ...error, setup_intent: { id: siId, object: 'setup_intent' } } });
      }
      customerOf.set(pmId, setupCustomer.get(siId) ?? '');
      setupState.set(siId, { status: 'succeeded', payment_method: pmId, last_setup_error: null });
      return send(200, { ok: true });
    }
    if (req.method === 'GET' && path === '/v1/setup_intents') {
      // https://docs.stripe.com/api/setup_intents/list: a customer's intents, newest first.
      const customer = new URL(req.url ?? '', 'http://x').searchParams.get('customer');
      const data = [...setupCustomer]
        .filter(([, c]) => c === customer)
        .reverse()
        .map(([id, c]) => ({
          id,
          object: 'setup_intent',
          customer: c,
          status: 'requires_payment_method',
          payment_method: null,
          last_setup_error: null,
          ...setupState.get(id),
          livemode: false,
          created,
        }));
      return send(200, { object: 'list', url: '/v1/setup_intents', has_more: false, data });
    }
    if (req.method === 'POST' && path === '/v1/setup_intents') {
      const id = `seti_fake${++n}`;
      setupCustomer.set(id, form.get('customer') ?? '');
      return send(200, {
        id,
        object: 'setup_intent',
        client_secret: `${id}_secret_fake`,
        customer: form.get('customer'),
        status: 'requires_payment_method',
        usage: form.get('usage'),
        livemode: false,
        created,
      });
    }
    if (req.method === 'POST' && path === '/v1/payment_methods') {
      // https://docs.stripe.com/api/payment_methods/create: type=card with card[token] (tok_visa…).
      const base = `pm_card_${(form.get('card[token]') ?? '').replace(/^tok_/, '')}`;
      const card = CARDS[base];
      if (form.get('type') !== 'card' || !card)
        return send(400, {
          error: { type: 'invalid_request_error', param: 'card[token]', message: 'Invalid card token' },
        });
      const id = `pm_fake${++n}`;
      madePms.set(id, base);
      return send(200, {
        id,
        object: 'payment_method',
        type: 'card',
        card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit' },
        customer: null,
        livemode: false,
        created,
      });
    }
    let m = /^\/v1\/payment_methods\/([^/]+)(\/detach)?$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const card = cardOf(id);
      if (!card)
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${id}'`,
          },
        });
      if (m[2]) customerOf.delete(id);
      return send(200, {
        id,
        object: 'payment_method',
        type: 'card',
        card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit' },
        customer: m[2] ? null : (customerOf.get(id) ?? (madePms.has(id) ? null : 'cus_fake_attached')),
        livemode: false,
        created,
      });
    }
    m = /^\/v1\/payment_intents$/.exec(path);
    if (m && req.method === 'POST') {
      const pmId = form.get('payment_method') ?? '';
      const card = cardOf(pmId);
      const pi = {
        id: `pi_fake${++n}`,
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        customer: form.get('customer'),
        payment_method: pmId,
        livemode: false,
        created,
      };
      if (!card)
        return send(400, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${pmId}'`,
          },
        });
      if (spent.has(pmId))
        return send(400, {
          error: {
            type: 'invalid_request_error',
            message:
              'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
          },
        });
      const customer = form.get('customer');
      if (madePms.has(pmId) && form.get('off_session') === 'true' && (!customer || customerOf.get(pmId) !== customer))
        return send(400, {
          error: {
            type: 'invalid_request_error',
            param: 'payment_method',
            message: `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
          },
        });
      // Saved during the payment: attached to the customer once the payment succeeds.
      const saves = !!customer && form.get('setup_future_usage') === 'off_session' && !card.decline;
      if (saves) customerOf.set(pmId, customer);
      if (madePms.has(pmId) && !customerOf.get(pmId)) spent.add(pmId);
      if (card.decline) {
        return send(402, {
          error: {
            type: 'card_error',
            code: card.decline.code,
            decline_code: card.decline.decline_code,
            message: card.decline.message,
            doc_url: 'https://stripe.com/docs/error-codes/card-declined',
            payment_intent: { ...pi, status: 'requires_payment_method' },
          },
        });
      }
      intents.set(pi.id, { amount: pi.amount, refunded: 0 });
      return send(200, { ...pi, status: 'succeeded', amount_received: pi.amount });
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      // https://docs.stripe.com/api/refunds/create: payment_intent, amount (default: what is left).
      const piId = form.get('payment_intent') ?? '';
      const intent = intents.get(piId);
      if (!intent)
        return send(400, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_intent',
            message: `No such payment_intent: '${piId}'`,
          },
        });
      const left = intent.amount - intent.refunded;
      const amount = form.has('amount') ? Number(form.get('amount')) : left;
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
        return send(400, {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            param: 'amount',
            message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          },
        });
      }
      intent.refunded += amount;
      return send(200, {
        id: `re_fake${++n}`,
        object: 'refund',
        amount,
        currency: 'usd',
        payment_intent: piId,
        status: 'succeeded',
        created,
      });
    }
    return send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hold(path) {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      holds.set(path, { arrived, released: new Promise<void>((resolve) => (release = resolve)) });
      return { arrived: arrival, release };
    },
    cut(method, path) {
      const key = `${method} ${path}`;
      cuts.add(key);
      return () => cuts.delete(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

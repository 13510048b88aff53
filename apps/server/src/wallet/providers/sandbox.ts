import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { WALLET_MESSAGES } from '@parkit/contract';
import {
  CardError,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type RefundRequest,
  type RefundResult,
  type SavedCard,
} from './types.ts';

/**
 * How a Stripe test number behaves (https://docs.stripe.com/testing): 'declined' is declined
 * wherever it is used, its SetupIntent included, so it cannot be saved; 'declined_after_attach'
 * ("Decline after attaching", 4000 0000 0000 0341) is saved, and declined when charged.
 */
type Outcome = 'succeeds' | 'declined' | 'declined_after_attach' | 'insufficient_funds';

const TEST_CARDS: Record<string, { brand: string; outcome: Outcome }> = {
  '4242424242424242': { brand: 'Visa', outcome: 'succeeds' },
  '4000056655665556': { brand: 'Visa', outcome: 'succeeds' },
  '5555555555554444': { brand: 'Mastercard', outcome: 'succeeds' },
  '378282246310005': { brand: 'American Express', outcome: 'succeeds' },
  '4000000000000002': { brand: 'Visa', outcome: 'declined' },
  '4000000000000341': { brand: 'Visa', outcome: 'declined_after_attach' },
  '4000000000009995': { brand: 'Visa', outcome: 'insufficient_funds' },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

interface TokenPayload {
  b: string;
  l: string;
  m: number;
  y: number;
  o: Outcome;
  n: string;
}

/**
 * The offline provider. Its tokenizer (POST /api/Sandbox/Tokens) takes the card form, checks it as
 * Stripe's test mode does and returns a signed token holding only brand, last 4, expiry and the
 * test outcome: the number and CVC are dropped there and never reach the database or a log.
 */
export function sandboxProvider(
  secret: string,
  now: () => Date = () => new Date(),
): PaymentProvider & {
  tokenize(card: { number: string; expMonth: number; expYear: number; cvc: string }): {
    token: string;
    brand: string;
    last4: string;
  };
} {
  const key = createHmac('sha256', secret).update('parkit-sandbox-cards').digest();
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');

  function expired(m: number, y: number): boolean {
    const d = now();
    return y < d.getUTCFullYear() || (y === d.getUTCFullYear() && m < d.getUTCMonth() + 1);
  }

  function read(token: string): TokenPayload {
    const m = /^tok_sandbox_([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m?.[1] || !m[2]) throw new CardError(WALLET_MESSAGES.tokenInvalid);
    const want = Buffer.from(sign(m[1]));
    const got = Buffer.from(m[2]);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw new CardError(WALLET_MESSAGES.tokenInvalid);
    try {
      return JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as TokenPayload;
    } catch {
      throw new CardError(WALLET_MESSAGES.tokenInvalid);
    }
  }

  return {
    name: 'sandbox',
    tokenize(card) {
      const digits = card.number.replace(/[\s-]/g, '');
      if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
        throw new CardError(WALLET_MESSAGES.cardNumberInvalid, 'Number');
      const test = TEST_CARDS[digits];
      if (!test) throw new CardError(WALLET_MESSAGES.cardNotTest, 'Number');
      if (expired(card.expMonth, card.expYear)) throw new CardError(WALLET_MESSAGES.expired, 'ExpYear');
      const expectedCvc = test.brand === 'American Express' ? 4 : 3;
      if (card.cvc.length !== expectedCvc) throw new CardError(WALLET_MESSAGES.cvcInvalid, 'Cvc');
      const payload: TokenPayload = {
        b: test.brand,
        l: digits.slice(-4),
        m: card.expMonth,
        y: card.expYear,
        o: test.outcome,
        n: randomBytes(9).toString('base64url'),
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return { token: `tok_sandbox_${body}.${sign(body)}`, brand: payload.b, last4: payload.l };
    },
    async attach(token): Promise<SavedCard> {
      const p = read(token);
      // The card's verification when it is saved (Stripe's SetupIntent): a declined card stops here.
      if (p.o === 'declined') throw new CardError(WALLET_MESSAGES.declined, 'Token', 402);
      return { providerRef: token, brand: p.b, last4: p.l, expMonth: p.m, expYear: p.y };
    },
    async readExpress(token): Promise<SavedCard> {
      const p = read(token);
      return { providerRef: token, brand: p.b, last4: p.l, expMonth: p.m, expYear: p.y };
    },
    async ensureCustomer() {
      return null;
    },
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      let p: TokenPayload;
      try {
        p = read(req.providerRef);
      } catch {
        return { ok: false, reason: 'declined', message: WALLET_MESSAGES.declined };
      }
      if (expired(p.m, p.y)) return { ok: false, reason: 'declined', message: WALLET_MESSAGES.expired };
      if (p.o === 'declined' || p.o === 'declined_after_attach')
        return { ok: false, reason: 'declined', message: WALLET_MESSAGES.declined };
      if (p.o === 'insufficient_funds')
        return { ok: false, reason: 'declined', message: WALLET_MESSAGES.insufficientCardFunds };
      // Deterministic per idempotency key, as Stripe answers a retried request with the first charge.
      // A sandbox token is charged again as it is: a saved card needs no customer (saveCard).
      return {
        ok: true,
        customerRef: null,
        chargeRef: `ch_sandbox_${createHmac('sha256', key).update(req.idempotencyKey).digest('hex').slice(0, 24)}`,
      };
    },
    async refund(req: RefundRequest): Promise<RefundResult> {
      if (
        !/^ch_sandbox_[0-9a-f]{24}$/.test(req.chargeRef) ||
        !Number.isSafeInteger(req.amountCents) ||
        req.amountCents <= 0
      ) {
        return { ok: false, reason: 'refused', message: WALLET_MESSAGES.refundRefused };
      }
      // Deterministic per idempotency key, as Stripe answers a retried refund with the first one.
      return {
        ok: true,
        refundRef: `re_sandbox_${createHmac('sha256', key).update(`refund:${req.idempotencyKey}`).digest('hex').slice(0, 24)}`,
      };
    },
    async detach() {},
    // A sandbox token is its own card: no customer is kept to delete (charge answers none).
    async deleteCustomer() {
      return { ok: true };
    },
  };
}

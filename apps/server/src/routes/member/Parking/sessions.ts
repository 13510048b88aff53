import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ActiveSessions,
  AmendQuote,
  AmendQuoteRequest,
  AmendRequest,
  AutoStartQuote,
  AutoStartQuoteRequest,
  ErrorResponse,
  ExtendRequest,
  ParkingProof,
  ParkingSession,
  Quote,
  QuoteRequest,
  SessionParams,
  SessionReceipt,
  StartRequest,
  StopRequest,
  StopResponse,
} from '@parkit/contract';
import type { Tx } from '../../../db/client.ts';
import { notFound } from '../../../lib/http-error.ts';
import { idempotent, type OneStatement } from '../../../wallet/index.ts';
import { checkSession, sessionLeftToRoute } from '../../../auth/index.ts';
import * as members from '../../../members/index.ts';
import * as parking from '../../../parking/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';

const base = { tags: ['Parking'] };
const errors = { 404: ErrorResponse, 409: ErrorResponse };
const moneyErrors = { ...errors, 402: ErrorResponse, 422: ErrorResponse };

/** Park and pay: quote, start, extend, stop, amend, and the sessions to show. */
/** A request of a route that pays for a session from a quote (Start, Extend). */
type SessionRequest = FastifyRequest<{ Body: { QuoteId: string; ConfirmOverMax?: boolean | undefined } }>;

const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Quote',
    {
      schema: {
        ...base,
        summary:
          'A price held 5 minutes: {ZoneId, VehicleId, DurationMinutes} for a new session, {SessionId, DurationMinutes} for an extension',
        body: QuoteRequest,
        response: { 200: Quote, ...errors },
      },
    },
    async (req) => {
      const b = req.body;
      const now = new Date();
      // In one statement when the process holds what prices it, else step by step (parking/quote-statement.ts).
      if (b.SessionId !== undefined) {
        const r = { SessionId: b.SessionId, DurationMinutes: b.DurationMinutes };
        return (
          (await parking.quoteExtendAnswered(app.db, app.sessionTerms, req.member.memberId, r, now)) ??
          parking.quoteExtend(app.db, req.member.memberId, r, now)
        );
      }
      return quoteStart(
        req.member.memberId,
        { ZoneId: b.ZoneId!, VehicleId: b.VehicleId!, DurationMinutes: b.DurationMinutes },
        now,
      );
    },
  );

  /** A start quote: in one statement when the process holds what prices it, else step by step (parking/quote-statement.ts). */
  async function quoteStart(
    memberId: number,
    r: { ZoneId: number; VehicleId: number; DurationMinutes: number },
    now: Date,
  ) {
    return (
      (await parking.quoteStartAnswered(app.db, app.quoteInputs, memberId, r, now)) ??
      parking.quoteStart(app.db, memberId, r, now)
    );
  }

  app.post(
    '/AutoStartQuote',
    {
      schema: {
        ...base,
        summary:
          'With Auto Start on: the quote for the default vehicle and duration in a zone, which Continue pays at once; otherwise why not',
        body: AutoStartQuoteRequest,
        response: { 200: AutoStartQuote, ...errors },
      },
    },
    async (req) => parking.quoteAutoStart(app.db, req.member.memberId, req.body.ZoneId, new Date()),
  );

  app.post(
    '/Start',
    {
      // Its one statement checks the token's session version (parking.startAnswered).
      config: { rateLimit: MONEY_RATE_LIMIT, sessionInQuery: 'gates-writes' },
      schema: {
        ...base,
        summary: 'Starts a session from a quote and pays its total from the wallet (Idempotency-Key header required)',
        body: StartRequest,
        response: { 201: ParkingSession, ...moneyErrors },
      },
    },
    async (req, reply) => {
      // A short balance is topped up by auto-reload when that covers the total, and a debit that
      // leaves it under MinBalance reloads after COMMIT: both in idempotent() (wallet/idempotency.ts).
      // The common case in one round trip (parking.startAnswered); otherwise the transaction path.
      const memberId = req.member.memberId;
      return idempotent(
        req,
        reply,
        'parking.start',
        async (tx, key) => {
          const { session, reloadDue } = await parking.start(tx, memberId, req.body, key, new Date());
          return { statusCode: 201, body: session, reloadDue };
        },
        undefined,
        sessionStatement(req, 201, parking.startAnswered, parking.storedStart),
      );
    },
  );

  /**
   * The one-statement path of a route that pays for a session from a quote (Start, Extend: their
   * statements lock the wallet, check the token's session version, pay, write the session and store
   * the key's answer; parking/start-statement.ts): the route answers `statusCode` with the session
   * it wrote, or takes the transaction path when the statement wrote nothing.
   */
  function sessionStatement(
    req: SessionRequest,
    statusCode: 200 | 201,
    statement: typeof parking.startAnswered,
    revive: (stored: unknown) => ParkingSession,
  ): OneStatement<ParkingSession> {
    const memberId = req.member.memberId;
    return {
      run: async (key, requestHash) => {
        const now = new Date();
        const { QuoteId, ConfirmOverMax } = req.body;
        const { sessionVersion, session } = await statement(
          app.db,
          memberId,
          {
            quoteId: QuoteId,
            confirmedOverMax: ConfirmOverMax === true,
            key,
            requestHash,
            sessionVersion: req.member.sessionVersion,
          },
          now,
        );
        if (sessionLeftToRoute(req)) checkSession(req, sessionVersion);
        if (!session) return null;
        app.sessionTerms.saw(session); // for a Stop in one statement (parking/stop-statement.ts)
        return { statusCode, body: parking.toSessionView(session.view, now), reloadDue: session.reloadDue };
      },
      revive,
      checkSession: async () => {
        if (sessionLeftToRoute(req)) checkSession(req, await members.sessionVersion(app.db, memberId));
      },
    };
  }

  /**
   * Extend and Amend: a paid change to a running session, replayed by its Idempotency-Key, as Start.
   * `answered`: the common case in one round trip (Extend's, parking.extendAnswered), whose
   * statement checks the token's session version; otherwise, and when it answers null, the
   * transaction path.
   */
  function paidChange<B extends z.ZodType>(
    path: string,
    scope: string,
    summary: string,
    body: B,
    change: (tx: Tx, memberId: number, body: z.infer<B>, key: string, now: Date) => Promise<parking.Paid>,
    answered?: { run: typeof parking.extendAnswered; revive: (stored: unknown) => ParkingSession },
  ) {
    app.post(
      path,
      {
        config: { rateLimit: MONEY_RATE_LIMIT, ...(answered ? { sessionInQuery: 'gates-writes' as const } : {}) },
        schema: { ...base, summary, body, response: { 200: ParkingSession, ...moneyErrors } },
      },
      async (req, reply) => {
        const memberId = req.member.memberId;
        return idempotent(
          req,
          reply,
          scope,
          async (tx, key) => {
            const { session, reloadDue } = await change(tx, memberId, req.body as z.infer<B>, key, new Date());
            return { statusCode: 200, body: session, reloadDue };
          },
          undefined,
          answered && sessionStatement(req as SessionRequest, 200, answered.run, answered.revive),
        );
      },
    );
  }

  paidChange(
    '/Extend',
    'parking.extend',
    'Adds the quoted minutes to a running session, without a second fee (Idempotency-Key header required)',
    ExtendRequest,
    parking.extend,
    { run: parking.extendAnswered, revive: parking.storedExtend },
  );
  paidChange(
    '/Amend',
    'parking.amend',
    'Corrects the vehicle or zone within 5 minutes of the start; the price difference is charged or refunded (Idempotency-Key header required)',
    AmendRequest,
    parking.amend,
  );

  app.post(
    '/Stop',
    {
      schema: {
        ...base,
        summary: 'Ends a running session now; unused whole minutes go back to the wallet',
        body: StopRequest,
        response: { 200: StopResponse, ...errors, 502: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req) => {
      // A wallet-paid session this process started or extended: in one statement; otherwise, and
      // when that writes nothing, the transaction path (parking/stop-statement.ts).
      const { memberId } = req.member;
      const now = new Date();
      return (
        (await parking.stopAnswered(app.db, app.sessionTerms, memberId, req.body.SessionId, now)) ??
        parking.stop(app.wallet, memberId, req.body.SessionId, now)
      );
    },
  );

  app.post(
    '/AmendQuote',
    {
      schema: {
        ...base,
        summary: 'What moving a session to another zone (Amend, within 5 minutes of the start) would charge or refund',
        body: AmendQuoteRequest,
        response: { 200: AmendQuote, ...errors },
      },
    },
    async (req) => parking.quoteAmendZone(app.db, req.member.memberId, req.body, new Date()),
  );

  app.get(
    '/Active',
    {
      schema: {
        ...base,
        summary: 'The member’s running sessions, soonest end first, with the server’s clock',
        response: { 200: ActiveSessions },
      },
    },
    async (req) => {
      const now = new Date();
      const rows = await parking.activeOf(app.db, { memberId: req.member.memberId }, now);
      return { ServerTime: now.toISOString(), Sessions: rows.map((r) => parking.toSessionView(r, now)) };
    },
  );

  app.get(
    '/Session/:id',
    {
      schema: {
        ...base,
        summary: 'One of the member’s sessions (running or ended): the live view and the receipt, with its payments',
        params: SessionParams,
        response: { 200: SessionReceipt, ...errors },
      },
    },
    async (req) => {
      const found = await parking.findOwned(app.db, { memberId: req.member.memberId }, req.params.id);
      if (!found) throw notFound();
      return parking.sessionReceipt(app.db, found, new Date());
    },
  );

  app.get(
    '/Session/:id/Proof',
    {
      schema: {
        ...base,
        summary:
          'Proof of payment for one of the member’s sessions: a token signed with Ed25519 (EdDSA) of the plate, zone and paid end time, which an officer verifies offline with GET /api/Parking/ProofKeys',
        params: SessionParams,
        response: { 200: ParkingProof, ...errors },
      },
    },
    async (req) => {
      const found = await parking.findOwned(app.db, { memberId: req.member.memberId }, req.params.id);
      if (!found) throw notFound();
      const { session, zone } = found;
      const claims = {
        plate: session.plate.toUpperCase(),
        plateState: session.plateState,
        zoneNumber: zone.zoneNumber,
        operatorId: session.operatorId,
        sessionId: session.id,
        endsAt: session.endsAt,
      };
      return {
        SessionId: session.id,
        Token: await app.parkingProof.sign(claims),
        KeyId: app.parkingProof.kid,
        PlateNumber: claims.plate,
        PlateState: claims.plateState,
        ZoneNumber: claims.zoneNumber,
        EndsAt: session.endsAt.toISOString(),
      };
    },
  );
};

export default sessionRoutes;

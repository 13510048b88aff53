import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Citation, CitationFile, Violation, ViolationRequest } from '@parkit/contract';
import { as, type SignedIn } from './helpers.ts';
import { multipart, PNG } from './support-helpers.ts';

/**
 * A violation in the operator's list, created by its manager: a fine of 25.00 due in 14 days with a
 * late fee of 10.00 unless `v` says otherwise; its code is `prefix` and a random tail (codes are one
 * per operator). 201 expected.
 */
export async function createViolation(
  app: FastifyInstance,
  manager: SignedIn,
  operatorId: number,
  prefix: string,
  v: Partial<ViolationRequest> = {},
): Promise<Violation> {
  const res = await as(app, manager, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Violations`,
    payload: {
      Code: `${prefix}${randomUUID().slice(0, 6)}`,
      Description: 'Parked without paying',
      Fine: '25.00',
      DueDays: 14,
      LateFee: '10.00',
      ...v,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Violation>();
}

/** An officer's photo of a car, uploaded for a citation of the operator: its FileId. */
export async function citationPhoto(app: FastifyInstance, officer: SignedIn, operatorId: number): Promise<string> {
  const res = await as(app, officer, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Citations/Photos`,
    ...multipart(PNG, 'car.png', { type: 'image/png' }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CitationFile>().FileId;
}

/** A citation an officer issues to a Texas plate in a zone, with one photo: 201 expected. */
export async function issueCitation(
  app: FastifyInstance,
  officer: SignedIn,
  operatorId: number,
  c: { zoneId: number; plate: string; violationId: number; location: string },
): Promise<Citation> {
  const res = await as(app, officer, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Citations`,
    payload: {
      ZoneId: c.zoneId,
      PlateNumber: c.plate,
      PlateState: 'TX',
      ViolationId: c.violationId,
      Location: c.location,
      PhotoIds: [await citationPhoto(app, officer, operatorId)],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Citation>();
}

/**
 * A staff POST of the citation tests: a contest's Decide (which requires an Idempotency-Key, being
 * a money write) gets a fresh key unless the test gives its own; anything else is sent as given.
 */
export function staffPost(app: FastifyInstance) {
  return (who: SignedIn, url: string, payload: object = {}, headers: Record<string, string> = {}) =>
    as(app, who, {
      method: 'POST',
      url,
      payload,
      headers:
        url.endsWith('/Decide') && headers['idempotency-key'] === undefined
          ? { ...headers, 'idempotency-key': randomUUID() }
          : headers,
    });
}

import { randomUUID } from 'node:crypto';
import type { ApdsQuoteRequest, ApdsQuoteResponse } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { policyForStart, priceWindow } from '../pricing/index.ts';
import { idNumber } from './apds-common.ts';
import { policyVersionRef, zonesForQuote } from './apds-rights.ts';

/** How long a quote's price holds (a quote is not stored: it is the engine's price at that time). */
const QUOTE_MINUTES = 15;

/**
 * POST /apds/quotes: a QuoteRightRequest answered with one QuoteRightResponse per right
 * specification it names (a zone: `zone-<id>`), priced by the quote engine exactly as the app's
 * own quote prices a session starting at periodStart for the requested minutes (the parking
 * charge; ParkIt's convenience fee is the app's and is not part of the rate). A zone that is not
 * ours (or is retired) is `noMatchingSpecification`; a stay past the zone's maximum is
 * `rightSpecificationNotAvailableAtRequestedTimes`. Nothing is written.
 */
export async function quoteRights(
  db: Executor,
  req: ApdsQuoteRequest,
  currency: string,
  now: Date,
): Promise<ApdsQuoteResponse[]> {
  const start = new Date(req.periodStart);
  const end = new Date(req.periodEnd);
  const stayMinutes = Math.ceil((end.getTime() - start.getTime()) / 60_000);
  const wanted = req.referencedRightSpecifications.map((r) => r.rightSpecificationId.id);
  const zones = await zonesForQuote(
    db,
    wanted.map((id) => idNumber(id, 'zone')).filter((n) => n !== null),
  );
  const responseTime = now.toISOString();
  const out: ApdsQuoteResponse[] = [];
  for (const specId of wanted) {
    const zone = zones.find((z) => `zone-${z.id}` === specId);
    const base = {
      id: `quote-${randomUUID()}`,
      version: 1,
      start: start.toISOString(),
      end: end.toISOString(),
      requestTime: new Date(req.requestTime).toISOString(),
      responseTime,
      quoteRequestId: { id: req.id, version: req.version, className: 'QuoteRightRequest' },
    };
    if (!zone) {
      out.push({ ...base, reason: 'noMatchingSpecification', options: [] });
      continue;
    }
    const policy = await policyForStart(db, zone, start);
    const price = priceWindow(policy.policy, zone.timezone, start.getTime(), 0, stayMinutes);
    if (price.refusal === 'maxStay') {
      out.push({ ...base, reason: 'rightSpecificationNotAvailableAtRequestedTimes', options: [] });
      continue;
    }
    // The rate table that priced it: the version in force at the start (an event's, or the zone's), or the preset.
    const version = policy.versionId === null ? null : await policyVersionRef(db, policy.versionId);
    const rateTableId = version
      ? { id: `policy-${version.policyId}`, version: version.version, className: 'RateTable' }
      : { id: `preset-zone-${zone.id}`, version: 1, className: 'RateTable' };
    out.push({
      ...base,
      options: [
        {
          id: `${base.id}-1`,
          version: 1,
          elementId: { id: specId, version: 1, className: 'Place' },
          quoteExpiration: {
            expiresDateTime: new Date(now.getTime() + QUOTE_MINUTES * 60_000).toISOString(),
            firstComeFirstServed: true,
          },
          identifiers: [
            { rateTableId, rightSpecificationId: { id: specId, version: 1, className: 'RightSpecification' } },
          ],
          financialQuote: {
            taxIncluded: true,
            value: { currencyType: currency, currencyValue: price.parkingCents / 100 },
          },
        },
      ],
    });
  }
  return out;
}

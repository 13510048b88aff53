import type { UserClass, UserClassPrice } from '@parkit/contract';
import type { PermitKind } from '../db/schema/index.ts';
import type { CompiledSpan } from './compiled-policy.ts';

/**
 * The rate a span asks of one driver: everyone's, a user class's, or a held permit's
 * (docs/pricing.md#permit-holders).
 */

/** A span's rate steps. */
type Steps = CompiledSpan['steps'];

/** A permit the driver's vehicle holds for the zone: it makes the driver one of the policy's user classes. */
export interface HeldPermit {
  id: number;
  typeId: number;
  kind: PermitKind;
}

/** Who the driver is for the spans' user classes: plain classes (a preview's), and the permits held for the zone. */
export interface Who {
  classes?: ReadonlySet<UserClass>;
  permits?: readonly HeldPermit[];
}

/** The user class a permit of each kind belongs to when a span names no narrower rule for it. */
export const PERMIT_KIND_CLASS: Record<PermitKind, UserClass> = {
  resident: 'permit',
  visitor: 'permit',
  business: 'permit',
  disabled: 'disabled',
  ev: 'ev',
};

/**
 * What a span says of one permit (docs/pricing.md#permit-holders): the rule naming its type, else
 * its kind, else its user class; null when none does, and then the permit parks free (a permit is
 * valid in the zones it names).
 */
export function ruleForPermit(classes: readonly UserClassPrice[], p: HeldPermit): UserClassPrice | null {
  return (
    classes.find((c) => c.PermitTypeId === p.typeId) ??
    classes.find((c) => c.PermitKind === p.kind) ??
    classes.find((c) => c.UserClass === PERMIT_KIND_CLASS[p.kind]) ??
    null
  );
}

/**
 * The permit that prices a span for its holder: one that parks free there (rate null), else the
 * first with a rate of its own; null without permits.
 */
export function permitFor(
  s: CompiledSpan,
  permits: readonly HeldPermit[],
): { permit: HeldPermit; rate: Steps | null } | null {
  let own: { permit: HeldPermit; rate: Steps } | null = null;
  for (const p of permits) {
    const rule = ruleForPermit(s.classes, p);
    if (!rule || rule.Exempt) return { permit: p, rate: null };
    own ??= { permit: p, rate: rule.Rate ?? [] };
  }
  return own;
}

/** The rate steps of a span for this driver ([] : exempt): a held permit's, else a plain class's, else everyone's. */
export function stepsFor(s: CompiledSpan, who: Who): Steps {
  if (who.permits && who.permits.length > 0) {
    const p = permitFor(s, who.permits)!;
    return p.rate ?? [];
  }
  const classes = who.classes;
  if (classes)
    for (const c of s.classes)
      if (c.UserClass !== undefined && classes.has(c.UserClass)) return c.Exempt ? [] : (c.Rate ?? []);
  return s.steps;
}

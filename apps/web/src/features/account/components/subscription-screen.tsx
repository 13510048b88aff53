import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import Check from 'lucide-react/icons/check';
import Crown from 'lucide-react/icons/crown';
import { type PlanSummary } from '@parkit/contract';
import { formatDateLong } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { both, Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { useCancelPlan, useCurrentPlan, usePlans } from '../api/wallet.ts';
import { useMoney, type Money } from '../../../lib/money.ts';

function features(plan: PlanSummary, money: Money, t: TFunction): string[] {
  const out: string[] = [];
  out.push(
    plan.ConvenienceFee > 0
      ? t('Convenience fee of {{fee}} per parking session', { fee: money(plan.ConvenienceFee) })
      : t('No convenience fee'),
  );
  if (plan.ZoneDiscountPercent > 0)
    out.push(t('{{pct}}% off zone rates where the operator allows it', { pct: plan.ZoneDiscountPercent }));
  out.push(t('Pay for parking from your wallet'));
  return out;
}

/** /subscription: the plans from the database, what each changes, the member's plan. */
export function SubscriptionScreen() {
  const { t } = useTranslation();
  const plans = usePlans();
  const current = useCurrentPlan();
  useAccountDetails({ fresh: true }); // the currency the prices show in (useMoney)
  const cancel = useCancelPlan();
  const money = useMoney();

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Subscription')} back={paths.homepage} />
      <div className="flex flex-col gap-4 p-4">
        <Loaded
          query={both(plans, current)}
          skeleton={<Skeleton rows={2} className="h-44" />}
          failed={t('The plans could not be loaded.')}
        >
          {([planList, currentPlan]) =>
            planList.map((plan) => {
              const mine = currentPlan.Plan.PlanId === plan.PlanId;
              return (
                <article
                  key={plan.PlanId}
                  aria-labelledby={`plan-${plan.PlanId}`}
                  className={`flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ${mine ? 'ring-2 ring-brand-700' : 'ring-1 ring-slate-200'}`}
                >
                  <div className="flex items-start justify-between gap-2">
                    <h2 id={`plan-${plan.PlanId}`} className="flex items-center gap-2 text-lg font-bold text-slate-900">
                      {plan.Price > 0 && <Crown className="size-5 text-amber-500" aria-hidden />}
                      {t(plan.Name)}
                    </h2>
                    {mine && (
                      <span className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-800">
                        {t('Current plan')}
                      </span>
                    )}
                  </div>
                  <p className="text-2xl font-bold tabular-nums">
                    {plan.Price > 0 ? t('{{price}} a month', { price: money(plan.Price) }) : t('Free')}
                  </p>
                  <ul className="flex flex-col gap-1.5">
                    {features(plan, money, t).map((f) => (
                      <li key={f} className="flex items-start gap-2 text-sm text-slate-700">
                        <Check className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden />
                        {f}
                      </li>
                    ))}
                  </ul>
                  {mine && currentPlan.CurrentPeriodEnd && (
                    <p className="text-sm text-slate-600" data-testid="period">
                      {currentPlan.CancelAtPeriodEnd
                        ? t('Ends on {{date}}; then Basic.', { date: formatDateLong(currentPlan.CurrentPeriodEnd) })
                        : t('Renews on {{date}}.', { date: formatDateLong(currentPlan.CurrentPeriodEnd) })}
                    </p>
                  )}
                  {plan.Price > 0 && (!mine || currentPlan.CancelAtPeriodEnd) && (
                    <ButtonLink to={paths.subscriptionPayment} block>
                      {mine
                        ? t('Keep {{plan}}', { plan: t(plan.Name) })
                        : t('Subscribe to {{plan}}', { plan: t(plan.Name) })}
                    </ButtonLink>
                  )}
                  {plan.Price > 0 && mine && !currentPlan.CancelAtPeriodEnd && (
                    <Button
                      variant="secondary"
                      block
                      loading={cancel.isPending}
                      onClick={() =>
                        cancel.mutate(undefined, {
                          onSuccess: () => toast.success(t('Your plan will end at the end of the period')),
                        })
                      }
                    >
                      {t('Cancel plan')}
                    </Button>
                  )}
                </article>
              );
            })
          }
        </Loaded>
      </div>
    </main>
  );
}

import { useRef, useState } from 'react';
import { formatDate, VisitorDayRequest, type Permit } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { toastFailure } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PayFrom } from '../../../components/ui/pay-from.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useGiveVisitorDay, usePayPermit, usePermits, useVisitorDays } from '../api/permits.ts';
import { ApplyForm } from './permit-application.tsx';

export const permitStatusLabel = (t: TFunction, s: Permit['Status']) =>
  ({
    pending: t('Pending: waiting for a decision'),
    approved: t('Approved: to pay'),
    refused: t('Refused'),
    active: t('Active'),
    expired: t('Expired'),
  })[s];
/**
 * Permits (/permits): the driver's permits and applications with their status, paid from the wallet
 * or by the saved card once approved; an application for a zone's permit type; an active resident
 * permit's visitor days (docs/permits.md).
 */
export function PermitsScreen({ plates = [] }: { plates?: string[] }) {
  const { t } = useTranslation();
  const list = usePermits();
  const [applying, setApplying] = useState(false);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <PageHeader title={t('Permits')} back={paths.profile} />
      <main className="mx-auto flex w-full max-w-xl flex-col gap-3 p-4">
        {applying ? (
          <ApplyForm plates={plates} onDone={() => setApplying(false)} />
        ) : (
          <div>
            <Button onClick={() => setApplying(true)}>{t('Apply for a permit')}</Button>
          </div>
        )}
        <Loaded
          query={list}
          skeleton={<Skeleton rows={3} className="h-32" />}
          failed={t('Permits could not be loaded.')}
        >
          {(permits) =>
            permits.length === 0 ? (
              <p className="text-slate-600">{t('No permits yet')}</p>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="permits">
                {permits.map((p) => (
                  <PermitCard key={p.Id} permit={p} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </main>
    </div>
  );
}

function PermitCard({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const money = useMoney();
  const pay = usePayPermit();
  const [from, setFrom] = useState<number | undefined>(undefined);
  // One Idempotency-Key per intent: a retry of the same choice repeats it, another source is a new one.
  const intent = useIntentKey();
  // A second tap before the button is disabled sends nothing.
  const paying = useRef(false);
  const payNow = () => {
    if (paying.current) return;
    paying.current = true;
    const body = from === undefined ? {} : { PaymentMethodId: from };
    pay.mutate(
      { permitId: p.Id, key: intent.keyFor(body), body },
      {
        onSuccess: () => {
          intent.done();
          toast.success(t('Paid: your permit is active'));
        },
        onError: toastFailure,
        onSettled: () => {
          paying.current = false;
        },
      },
    );
  };
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <p className="font-semibold break-words text-slate-900">{p.TypeName}</p>
      <p className="mt-1 text-sm font-medium text-slate-900">{permitStatusLabel(t, p.Status)}</p>
      {p.Status === 'refused' && p.RefusalReason && (
        <p className="text-sm break-words text-slate-600">{t('Reason: {{reason}}', { reason: p.RefusalReason })}</p>
      )}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">{t('Plates')}</dt>
        <dd className="break-words text-slate-900">{p.Plates.join(', ')}</dd>
        <dt className="text-slate-500">{t('Price')}</dt>
        <dd className="text-slate-900 tabular-nums">{money(p.PriceCents / 100)}</dd>
        {p.ValidFrom && p.ValidUntil && (
          <>
            <dt className="text-slate-500">{t('Valid')}</dt>
            <dd className="text-slate-900">
              {t('{{from}} to {{until}}', { from: formatDate(p.ValidFrom), until: formatDate(p.ValidUntil) })}
            </dd>
          </>
        )}
      </dl>
      {p.Status === 'approved' && (
        <>
          <PayFrom name={`pay-permit-${p.Id}`} value={from} onChange={setFrom} />
          <div className="mt-3">
            <Button onClick={payNow} loading={pay.isPending}>
              {from === undefined
                ? t('Pay {{amount}} from the wallet', { amount: money(p.PriceCents / 100) })
                : t('Pay {{amount}} by card', { amount: money(p.PriceCents / 100) })}
            </Button>
          </div>
        </>
      )}
      {p.Status === 'active' && p.VisitorDaysPerMonth > 0 && <VisitorDays permit={p} />}
    </li>
  );
}

/** Today as YYYY-MM-DD in the device's time. */
function today() {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function VisitorDays({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const days = useVisitorDays(p.Id);
  const give = useGiveVisitorDay(p.Id);
  const form = useSchemaForm<VisitorDayRequest>(VisitorDayRequest, { Plate: '', Date: today() });
  const month = (form.watch('Date') || today()).slice(0, 7);
  const submit = form.handleSubmit(async (body) => {
    try {
      await give.mutateAsync({ Plate: body.Plate.toUpperCase(), Date: body.Date });
      toast.success(t('Visitor day given'));
      form.setValue('Plate', '');
    } catch (err) {
      toastFailure(err);
    }
  });
  return (
    <section className="mt-3 border-t border-slate-100 pt-3" aria-label={t('Visitor days')}>
      <h3 className="text-sm font-semibold text-slate-700">{t('Visitor days')}</h3>
      <Loaded query={days} compact skeleton={<Skeleton rows={1} />} failed={t('Visitor days could not be loaded.')}>
        {(all) => {
          const inMonth = all.filter((d) => d.Date.startsWith(month));
          const left = Math.max(0, p.VisitorDaysPerMonth - inMonth.length);
          return (
            <>
              <p className="text-sm text-slate-600">{t('{{count}} visitor days left this month', { count: left })}</p>
              {inMonth.length > 0 && (
                <ul className="mt-1 text-sm text-slate-900" aria-label={t('Visitor days given this month')}>
                  {inMonth.map((d) => (
                    <li key={d.Id} className="break-words">
                      {formatDate(d.Date)} · {d.Plate}
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </Loaded>
      <form
        className="mt-2 flex flex-col gap-2"
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-label={t('Give a visitor day')}
      >
        <TextField label={t('Visitor’s plate')} {...form.field('Plate')} maxLength={20} autoCapitalize="characters" />
        <TextField label={t('Date')} type="date" {...form.field('Date')} />
        <div>
          <Button type="submit" loading={form.submitting}>
            {t('Give a visitor day')}
          </Button>
        </div>
      </form>
    </section>
  );
}

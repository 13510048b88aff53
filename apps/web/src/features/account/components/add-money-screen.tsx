import { useTranslation } from '../../../lib/i18n.ts';
import { z } from 'zod';
import { TopUpAmount } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { FieldShell, controlClass } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { memberPublishableKey, useAddMoney, useCards } from '../api/wallet.ts';
import { CardNeeded, Declined, PaymentScreen, usePayment } from './payment-parts.tsx';
import { ExpressPay } from '../../../components/payments/express-pay.tsx';

const Form = z.object({ Amount: TopUpAmount, PaymentMethodId: z.string() });
type FormIn = z.input<typeof Form>;
type FormOut = z.output<typeof Form>;

const QUICK = ['10', '20', '50'];

/** Add Money (/addmoney): checked amount, charged to a saved card, credited once. */
export function AddMoneyScreen() {
  const { t } = useTranslation();
  const details = useAccountDetails({ fresh: true });
  const cards = useCards();
  const add = useAddMoney();
  const form = useSchemaForm<FormIn, FormOut>(Form, { Amount: '', PaymentMethodId: '' });
  const payment = usePayment(add.mutateAsync, (err) => {
    // A decline (402) or an unreachable provider (503): the provider's reason, nothing credited.
    if (err instanceof ApiError && (err.status === 402 || err.status === 503)) return err.message;
    showFormError(err, form.setError, { Amount: 'Amount', PaymentMethodId: 'PaymentMethodId' });
    return null;
  });
  const money = useMoney();

  const submit = (values: FormOut) =>
    payment.pay({
      amount: (values.Amount / 100).toFixed(2),
      paymentMethodId: values.PaymentMethodId ? Number(values.PaymentMethodId) : undefined,
    });

  const list = cards.data ?? [];
  return (
    <PaymentScreen
      title={t('Add Money')}
      back={paths.account}
      details={details.data}
      paid={{
        open: payment.paid,
        to: paths.account,
        title: t('Money Added'),
        // The spec's 'successfully added', with what was added and the balance it made.
        description: add.data
          ? `${money(add.data.Amount)} ${t('successfully added')}. ${t('New balance: {{balance}}', { balance: money(add.data.Balance) })}`
          : t('successfully added'),
      }}
    >
      <CardNeeded
        from={paths.addMoney}
        loading={cards.isPending || details.isPending}
        skeleton={<Skeleton rows={2} className="h-20" />}
        hasCard={list.length > 0}
      >
        {() => (
          <form
            noValidate
            onSubmit={form.handleSubmit(submit)}
            className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm"
          >
            <FieldShell
              label={t('Amount')}
              error={form.formState.errors.Amount?.message}
              hint={t('From {{min}} to {{max}}', { min: money(5), max: money(500) })}
            >
              {({ id, describedBy }) => (
                <div className="relative">
                  <span
                    className="pointer-events-none absolute top-1/2 inset-s-3 -translate-y-1/2 text-slate-500"
                    aria-hidden
                  >
                    {money.symbol}
                  </span>
                  <input
                    id={id}
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="0.00"
                    aria-invalid={form.formState.errors.Amount ? true : undefined}
                    aria-describedby={describedBy}
                    className={`${controlClass} ps-8 text-lg tabular-nums`}
                    {...form.register('Amount')}
                  />
                </div>
              )}
            </FieldShell>
            <div className="flex gap-2" role="group" aria-label={t('Quick amounts')}>
              {QUICK.map((q) => (
                <Button
                  key={q}
                  variant="secondary"
                  className="flex-1"
                  onClick={() => form.setValue('Amount', q, { shouldValidate: true })}
                >
                  {money.symbol}
                  {q}
                </Button>
              ))}
            </div>
            {list.length > 1 && (
              <FieldShell label={t('Pay with')} error={form.formState.errors.PaymentMethodId?.message}>
                {({ id }) => (
                  <select id={id} className={controlClass} {...form.register('PaymentMethodId')}>
                    <option value="">{t('Default card')}</option>
                    {list.map((c) => (
                      <option key={c.PaymentMethodId} value={String(c.PaymentMethodId)}>
                        {c.Brand} •••• {c.Last4}
                      </option>
                    ))}
                  </select>
                )}
              </FieldShell>
            )}
            {list.length === 1 && (
              <p className="text-sm text-slate-600">
                {t('Pay with')}: {list[0]!.Brand} •••• {list[0]!.Last4}
              </p>
            )}
            {payment.declined && (
              <Declined reason={payment.declined}>{t('Nothing was added to your wallet.')}</Declined>
            )}
            <Button id="add-money" type="submit" block loading={add.isPending}>
              {t('Add Money')}
            </Button>
            {details.data && (
              <ExpressPay
                provider={details.data.PaymentProvider}
                publishableKey={memberPublishableKey}
                currency={details.data.Currency}
                amountCents={Math.round(Number(String(form.watch('Amount')).replace(/,/g, '')) * 100) || 0}
                ready={() => form.trigger('Amount')}
                onToken={async (token) => {
                  const amount = Form.shape.Amount.parse(form.getValues('Amount'));
                  await payment.pay({ amount: (amount / 100).toFixed(2), expressToken: token });
                }}
              />
            )}
          </form>
        )}
      </CardNeeded>
    </PaymentScreen>
  );
}

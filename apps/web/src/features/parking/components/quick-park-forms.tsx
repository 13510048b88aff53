import { useCallback, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { z } from 'zod';
import {
  GuestQuoteRequest,
  OtpCode,
  PhoneNumber,
  type GuestQuote,
  type GuestToken,
  type ParkingSession,
} from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect, FormText } from '../../../components/ui/form-fields.tsx';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import {
  sendGuestCode,
  useGuestPayment,
  usePayGuest,
  useQuoteGuest,
  useSendGuestCode,
  useVerifyGuest,
} from '../api/quick-park.ts';
import { ResendCode } from '../../../components/ui/resend-code.tsx';
import { ZoneSign } from './zone-sign.tsx';
import { durationChoices } from '../lib/session-time.ts';
import { DurationPicker } from './duration-picker.tsx';
import { QuoteSummary } from './quote-summary.tsx';
import { useMoney } from '../../../lib/money.ts';
import { ExpressPay } from '../../../components/payments/express-pay.tsx';

/** A Quick Park step: its fields, what the server refused, and the one submit button. */
function StepForm({
  onSubmit,
  error,
  pending,
  submit,
  children,
}: {
  onSubmit: (e: FormEvent) => void;
  error: unknown;
  pending: boolean;
  submit: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form noValidate className="flex flex-col gap-3" onSubmit={onSubmit}>
      {children}
      <ErrorLine error={error} fallback={t('Server Not Responding')} />
      <Button type="submit" block loading={pending}>
        {submit}
      </Button>
    </form>
  );
}

const PhoneForm = z.object({ phone: PhoneNumber });
/** The card as typed: the server checks it (its refusal shows under the form). */
const CardForm = z.object({ number: z.string(), month: z.string(), year: z.string(), cvc: z.string() });
const CodeForm = z.object({ code: OtpCode });

/** Step 1: the mobile number, verified by a code (the receipt goes there). */
export function VerifyPhone({ onVerified }: { onVerified: (t: GuestToken) => void }) {
  const { t } = useTranslation();
  const send = useSendGuestCode();
  const verify = useVerifyGuest();
  const [phone, setPhone] = useState<string | null>(null);
  const phoneForm = useSchemaForm<z.input<typeof PhoneForm>>(PhoneForm, { phone: '' });
  const codeForm = useSchemaForm<z.input<typeof CodeForm>>(CodeForm, { code: '' });
  if (phone === null) {
    return (
      <StepForm
        onSubmit={phoneForm.handleSubmit((v) => send.mutate(v.phone, { onSuccess: () => setPhone(v.phone) }))}
        error={send.error}
        pending={send.isPending}
        submit={t('Send code')}
      >
        <FormText
          control={phoneForm.control}
          name="phone"
          label={t('Mobile Number')}
          inputMode="numeric"
          autoComplete="tel"
        />
      </StepForm>
    );
  }
  return (
    <>
      <StepForm
        onSubmit={codeForm.handleSubmit((v) => verify.mutate({ phone, code: v.code }, { onSuccess: onVerified }))}
        error={verify.error}
        pending={verify.isPending}
        submit={t('Verify')}
      >
        <p className="text-sm text-slate-600">{t('We sent a 6-digit code to {{phone}}.', { phone })}</p>
        <FormText
          control={codeForm.control}
          name="code"
          label={t('Verification code')}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </StepForm>
      <ResendCode send={() => sendGuestCode(phone)} />
    </>
  );
}

const DetailsForm = GuestQuoteRequest.omit({ DurationMinutes: true });
type Details = z.input<typeof DetailsForm>;
const GUEST_MAX_MINUTES = 240;

/** Step 2: zone number from the sign, plate and state, duration; the quote. */
export function ParkingDetails({
  token,
  zoneNumber,
  states,
  onQuote,
}: {
  token: string;
  zoneNumber: string;
  states: string[];
  onQuote: (q: GuestQuote) => void;
}) {
  const { t } = useTranslation();
  const [minutes, setMinutes] = useState(60);
  const quote = useQuoteGuest();
  const form = useSchemaForm<Details>(DetailsForm, { ZoneNumber: zoneNumber, PlateNumber: '', PlateState: '' });
  return (
    <StepForm
      onSubmit={form.handleSubmit((v) =>
        quote.mutate({ token, body: { ...v, DurationMinutes: minutes } }, { onSuccess: onQuote }),
      )}
      error={quote.error}
      pending={quote.isPending}
      submit={t('See the price')}
    >
      <FormText control={form.control} name="ZoneNumber" label={t('Zone number')} inputMode="numeric" />
      <FormText
        control={form.control}
        name="PlateNumber"
        label={t('Enter Vehicle Plate #')}
        autoCapitalize="characters"
      />
      <FormSelect
        control={form.control}
        name="PlateState"
        label={t('State')}
        placeholder={t('Select State')}
        options={states.map((s) => ({ value: s, label: s }))}
      />
      <DurationPicker
        choices={durationChoices(GUEST_MAX_MINUTES)}
        value={minutes}
        onChange={setMinutes}
        label={t('How long?')}
      />
    </StepForm>
  );
}

/** Step 3: the card (sandbox: Stripe's test numbers), paid once for the quoted total. */
export function PayByCard({
  token,
  quote,
  onPaid,
}: {
  token: string;
  quote: GuestQuote;
  onPaid: (s: ParkingSession) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const pay = usePayGuest();
  const payment = useGuestPayment(token);
  const key = payment.data?.PublishableKey ?? null;
  const publishableKey = useCallback(async () => key, [key]);
  // A second tap can land before the button shows it is busy (the form checks the card first): the
  // quote is spent by the first request, so the second would only answer "This price has expired"
  // and hide the session the first one started. One payment per screen at a time, as the member's Pay.
  const paying = useRef(false);
  const { field, handleSubmit } = useSchemaForm<z.input<typeof CardForm>>(CardForm, {
    number: '',
    month: '',
    year: '',
    cvc: '',
  });
  return (
    <StepForm
      error={pay.error}
      pending={pay.isPending}
      submit={t('Pay {{total}}', { total: money(quote.TotalAmount) })}
      onSubmit={(e) =>
        void handleSubmit((card) => {
          if (paying.current) return;
          paying.current = true;
          pay.mutate(
            {
              token,
              quoteId: quote.QuoteId,
              card: { Number: card.number, ExpMonth: Number(card.month), ExpYear: Number(card.year), Cvc: card.cvc },
            },
            {
              onSuccess: onPaid,
              onSettled: () => {
                paying.current = false;
              },
            },
          );
        })(e)
      }
    >
      <section aria-label={t('Zone')} className="flex items-center gap-3 rounded-2xl bg-white p-4 shadow-xs">
        <ZoneSign number={quote.ZoneNumber} />
        <div className="min-w-0">
          <p className="font-semibold break-words text-slate-900">{quote.Name}</p>
          <p className="text-sm break-words text-slate-600">{`${quote.Address}, ${quote.City}, ${quote.State}`}</p>
        </div>
      </section>
      <QuoteSummary quote={quote} />
      <TextField label={t('Card number')} {...field('number')} inputMode="numeric" autoComplete="cc-number" />
      <div className="grid grid-cols-3 gap-2">
        <TextField
          label={t('Month')}
          {...field('month')}
          inputMode="numeric"
          autoComplete="cc-exp-month"
          placeholder="MM"
        />
        <TextField
          label={t('Year')}
          {...field('year')}
          inputMode="numeric"
          autoComplete="cc-exp-year"
          placeholder="YYYY"
        />
        <TextField label={t('CVC')} {...field('cvc')} inputMode="numeric" autoComplete="cc-csc" />
      </div>
      {/* Apple Pay and Google Pay (with Stripe, its Express Checkout Element; with the sandbox, its
          test wallet): the wallet's one-time card pays the Start, and is kept nowhere. */}
      {payment.data && (
        <ExpressPay
          provider={payment.data.PaymentProvider}
          publishableKey={publishableKey}
          currency={payment.data.Currency}
          amountCents={Math.round(quote.TotalAmount * 100)}
          ready={async () => !paying.current}
          onToken={async (expressToken) => {
            paying.current = true;
            try {
              onPaid(await pay.mutateAsync({ token, quoteId: quote.QuoteId, expressToken }));
            } catch {
              // The refusal shows above the Pay button (pay.error).
            } finally {
              paying.current = false;
            }
          }}
        />
      )}
    </StepForm>
  );
}

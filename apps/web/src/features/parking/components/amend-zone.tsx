import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../../lib/i18n.ts';
import { type AmendQuote, type ParkingSession } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useAmendQuote, useAmendSession } from '../api/amend-session.ts';
import { searchZones } from '../api/search-zones.ts';
import { AmendCard } from './amend-card.tsx';
import { useMoney } from '../../../lib/money.ts';

const ZoneForm = z.object({ zone: z.string().trim() });

/** What moving costs, in words: charged, refunded or the same. */
function Difference({ preview }: { preview: AmendQuote }) {
  const { t } = useTranslation();
  const money = useMoney();
  if (preview.Difference > 0) {
    return (
      <>
        <p className="font-semibold text-slate-900">
          {t('You pay {{amount}} more from your wallet.', { amount: money(preview.Difference) })}
        </p>
        {!preview.BalanceCovers && (
          <p role="alert" className="text-amber-900">
            {preview.AutoReloadCovers
              ? t('Auto-reload adds money from your card first.')
              : t('Your balance is {{balance}}: not enough for {{total}}.', {
                  balance: money(preview.Balance),
                  total: money(preview.Difference),
                })}
          </p>
        )}
      </>
    );
  }
  if (preview.Difference < 0)
    return (
      <p className="font-semibold text-slate-900">
        {t('{{amount}} goes back to your wallet.', { amount: money(-preview.Difference) })}
      </p>
    );
  return <p className="font-semibold text-slate-900">{t('The price stays the same.')}</p>;
}

/**
 * A wrong zone fixed within 5 minutes of the start: the zone number from the sign, then
 * the price difference (charged or refunded) before the driver confirms.
 */
export function AmendZone({ session }: { session: ParkingSession }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { register, handleSubmit, reset, control } = useSchemaForm<z.input<typeof ZoneForm>, z.output<typeof ZoneForm>>(
    ZoneForm,
    { zone: '' },
  );
  const typed = useWatch({ control, name: 'zone' });
  const [zoneId, setZoneId] = useState<number | null>(null);
  const [lookup, setLookup] = useState<'idle' | 'searching' | 'none' | 'same' | 'failed'>('idle');
  const preview = useAmendQuote(zoneId === null ? null : { SessionId: session.SessionId, ZoneId: zoneId });
  const amend = useAmendSession();
  const intent = useIntentKey();

  const check = handleSubmit(async ({ zone: number }) => {
    if (!number) return;
    setLookup('searching');
    try {
      const zones = await searchZones({ q: number, near: null, limit: 5 });
      const zone = zones.find((z) => z.ZoneNumber.toLowerCase() === number.toLowerCase());
      if (!zone) return setLookup('none');
      if (zone.ZoneId === session.ZoneId) return setLookup('same');
      setLookup('idle');
      amend.reset();
      setZoneId(zone.ZoneId);
    } catch {
      setLookup('failed');
    }
  });
  const close = () => setZoneId(null);
  const confirm = () => {
    if (zoneId === null) return;
    const body = { SessionId: session.SessionId, ZoneId: zoneId };
    amend.mutate(
      { body, key: intent.keyFor(body) },
      {
        onSuccess: () => {
          intent.done();
          reset();
          close();
        },
      },
    );
  };
  const p = preview.data;
  const blocked = !p || (p.Difference > 0 && !p.BalanceCovers && !p.AutoReloadCovers);
  const lookupMessage = {
    idle: null,
    searching: null,
    none: t('No zone has that number.'),
    same: t('The session is already in that zone.'),
    failed: t('The zone could not be loaded.'),
  }[lookup];

  return (
    <AmendCard
      id="amend-zone-title"
      title={t('Wrong zone?')}
      text={t(
        'Type the zone number on the sign within 5 minutes of the start: you see the price difference before you confirm.',
      )}
    >
      <form className="flex items-end gap-2" onSubmit={(e) => void check(e)}>
        <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm text-slate-700">
          {t('Zone number')}
          <input
            className="min-h-11 rounded-xl border border-slate-300 bg-white px-3"
            {...register('zone', { onChange: () => setLookup('idle') })}
            maxLength={20}
            autoComplete="off"
          />
        </label>
        <Button type="submit" variant="secondary" loading={lookup === 'searching'} disabled={typed.trim() === ''}>
          {t('Check the price')}
        </Button>
      </form>
      {lookupMessage && (
        <p role="alert" className="text-sm text-red-800">
          {lookupMessage}
        </p>
      )}
      <Dialog
        open={zoneId !== null}
        onOpenChange={(open) => !open && close()}
        title={p ? t('Move to zone {{number}}?', { number: p.ZoneNumber }) : t('Wrong zone?')}
      >
        {p ? (
          <div className="flex flex-col gap-1 text-sm text-slate-700">
            <p>{t('Parking amount in the new zone: {{amount}}', { amount: money(p.ParkingAmount) })}</p>
            <Difference preview={p} />
          </div>
        ) : preview.isError ? (
          <ErrorLine error={preview.error} fallback={t('The price could not be loaded.')} />
        ) : (
          <Skeleton rows={1} className="h-16" />
        )}
        <ErrorLine error={amend.error} fallback={t('The session could not be corrected.')} />
        <Button loading={amend.isPending} disabled={blocked} onClick={confirm}>
          {p ? t('Move to zone {{number}}', { number: p.ZoneNumber }) : t('Confirm')}
        </Button>
        <Button variant="secondary" onClick={close}>
          {t('Cancel')}
        </Button>
      </Dialog>
    </AmendCard>
  );
}

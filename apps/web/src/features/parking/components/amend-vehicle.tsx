import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { ParkingSession, Vehicle } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { useAmendSession } from '../api/amend-session.ts';
import { AmendCard } from './amend-card.tsx';

/** A wrong plate fixed within 5 minutes of the start, without paying again. */
export function AmendVehicle({ session, vehicles }: { session: ParkingSession; vehicles: Vehicle[] }) {
  const { t } = useTranslation();
  const others = vehicles.filter((v) => v.VehicleID !== session.VehicleId);
  const [picked, setPicked] = useState<number | null>(null);
  const amend = useAmendSession();
  const intent = useIntentKey();
  if (others.length === 0) return null;
  const value = picked ?? others[0]!.VehicleID;
  return (
    <AmendCard
      id="amend-title"
      title={t('Wrong vehicle?')}
      text={t('You can correct it within 5 minutes of the start, without paying again.')}
    >
      <label className="flex flex-col gap-1 text-sm text-slate-700">
        {t('Vehicle')}
        <select
          className="min-h-11 rounded-xl border border-slate-300 bg-white px-3"
          value={value}
          onChange={(e) => setPicked(Number(e.target.value))}
        >
          {others.map((v) => (
            <option key={v.VehicleID} value={v.VehicleID}>{`${v.PlateNumber.toUpperCase()} (${v.PlateState})`}</option>
          ))}
        </select>
      </label>
      <ErrorLine error={amend.error} fallback={t('The session could not be corrected.')} />
      <Button
        variant="secondary"
        loading={amend.isPending}
        onClick={() => {
          const body = { SessionId: session.SessionId, VehicleId: value };
          amend.mutate({ body, key: intent.keyFor(body) }, { onSuccess: intent.done });
        }}
      >
        {t('Use this vehicle')}
      </Button>
    </AmendCard>
  );
}

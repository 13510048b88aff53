import MapPinOff from 'lucide-react/icons/map-pin-off';
import Zap from 'lucide-react/icons/zap';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { href, paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { useAutoStartQuote } from '../api/get-auto-start-quote.ts';
import { useZone } from '../api/get-zone.ts';
import { usePayQuote } from '../api/pay-parking.ts';
import { ZoneFacts } from './zone-facts.tsx';
import { ZoneSign } from './zone-sign.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { useIdParam } from '../hooks/use-id-param.ts';
import { useMoney } from '../../../lib/money.ts';

function Problem({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white p-6 text-center"
    >
      <MapPinOff className="size-8 text-slate-400" aria-hidden />
      <p className="font-semibold text-slate-900">{title}</p>
      <p className="text-sm text-slate-600">{text}</p>
      <ButtonLink to={paths.findParking} size="lg" block>
        {t('Find Parking')}
      </ButtonLink>
    </div>
  );
}

/**
 * Continue: to /SelectVehicle; with Auto Start on, it pays at once for the default
 * vehicle and duration and shows that total; a guest goes to Quick Park.
 */
function ContinueButton({ zoneId, zoneNumber }: { zoneId: number; zoneNumber: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const guest = !useSession().member;
  const auto = useAutoStartQuote(zoneId, !guest);
  const pay = usePayQuote('Start');
  const q = auto.data?.Enabled ? auto.data.Quote : null;
  if (guest) {
    return (
      <ButtonLink to={href(paths.quickParkRegister, { number: zoneNumber })} size="lg" block>
        {t('Continue')}
      </ButtonLink>
    );
  }
  if (!q || !auto.data) {
    return (
      <ButtonLink
        to={href(paths.selectVehicle, { zone: zoneId })}
        aria-busy={auto.isPending || undefined}
        size="lg"
        block
      >
        {t('Continue')}
      </ButtonLink>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="flex items-center justify-center gap-1.5 text-center text-sm text-slate-700">
        <Zap className="size-4 shrink-0 text-brand-700" aria-hidden />
        {t('Auto Start: {{plate}} for {{minutes}} minutes', {
          plate: (auto.data.PlateNumber ?? '').toUpperCase(),
          minutes: q.DurationMinutes,
        })}
      </p>
      <Button
        block
        className="min-h-12 text-base"
        loading={pay.isPending}
        disabled={!q.BalanceCovers}
        onClick={() =>
          pay.mutate(
            { QuoteId: q.QuoteId },
            { onSuccess: (s) => void navigate(href(paths.parkDetails, { id: s.SessionId })) },
          )
        }
      >
        {t('Continue · Pay {{total}}', { total: money(q.TotalAmount) })}
      </Button>
      {!q.BalanceCovers && (
        <Link to={paths.addMoney} className="text-center text-sm font-semibold text-brand-800 underline">
          {t('Your balance is too low. Add Money')}
        </Link>
      )}
      {pay.error && (
        <p role="alert" className="text-center text-sm text-red-800">
          {t(pay.error.message)}
        </p>
      )}
      <Link
        to={href(paths.selectVehicle, { zone: zoneId })}
        className="text-center text-sm font-semibold text-brand-800 hover:underline"
      >
        {t('Choose another vehicle or duration')}
      </Link>
    </div>
  );
}

/** /confirmlocation?zone={ZoneId}: the zone the driver chose, to check against the street sign before parking. */
export function ConfirmZoneScreen() {
  const { t } = useTranslation();
  const id = useIdParam('zone');
  const zone = useZone(id);
  const notFound = zone.error instanceof ApiError && (zone.error.status === 404 || zone.error.status === 400);

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Confirm Location')} back={paths.findParking} />
      <div className="flex flex-col gap-4 p-4">
        {id === null ? (
          <Problem title={t('No zone chosen')} text={t('Choose a zone from the list or the map first.')} />
        ) : notFound ? (
          <Problem
            title={t('This zone was not found')}
            text={t('Check the zone number on the parking sign and search again.')}
          />
        ) : (
          <Loaded
            query={zone}
            skeleton={<Skeleton rows={2} className="h-40" />}
            failed={t('The zone could not be loaded.')}
          >
            {(z) => (
              <>
                <section
                  aria-labelledby="zone-title"
                  className="rounded-2xl border border-slate-200 bg-white p-4 shadow-xs"
                >
                  <div className="flex items-center gap-4 pb-3">
                    <ZoneSign number={z.ZoneNumber} size="lg" />
                    <div className="min-w-0">
                      <h2 id="zone-title" className="text-lg leading-snug font-bold text-slate-900">
                        {z.Name}
                      </h2>
                      <p className="text-sm text-slate-600">
                        {t('Check that this number matches the sign where you parked.')}
                      </p>
                    </div>
                  </div>
                  <ZoneFacts zone={z} showAddress />
                </section>
                <div className="flex flex-col gap-2">
                  <ContinueButton zoneId={z.ZoneId} zoneNumber={z.ZoneNumber} />
                  <ButtonLink to={paths.findParking} variant="secondary" size="lg" block>
                    {t('Choose another zone')}
                  </ButtonLink>
                </div>
              </>
            )}
          </Loaded>
        )}
      </div>
    </main>
  );
}

import { memo, useMemo } from 'react';
import { encode } from 'uqr';
import { type ParkingSession } from '@parkit/contract';
import { formatTime } from '../../../lib/dates.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useParkingProof } from '../api/get-parking-proof.ts';

/** The token as a QR code: one SVG path of its dark modules. */
function QrCode({ text, label }: { text: string; label: string }) {
  // Encoded once per token: the session screen re-renders every second with its countdown.
  const { size, d } = useMemo(() => {
    const qr = encode(text, { ecc: 'L', border: 2 });
    let path = '';
    qr.data.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)));
    return { size: qr.size, d: path };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      className="mx-auto aspect-square w-full max-w-64 bg-white"
      shapeRendering="crispEdges"
      data-token={text}
    >
      <path d={d} fill="#000" />
    </svg>
  );
}

/**
 * The session's proof of payment (docs/proof-of-payment.md): a signed code of the plate, zone and
 * paid end time that an officer's device checks with no connection, kept on this phone for when
 * there is none (lib/persist.ts).
 */
export const ProofOfPayment = memo(function ProofOfPayment({ session }: { session: ParkingSession }) {
  const { t } = useTranslation();
  const proof = useParkingProof(session.SessionId, session.EndsAt);
  return (
    <section
      aria-labelledby="proof-heading"
      className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4"
    >
      <h2 id="proof-heading" className="font-semibold text-slate-900">
        {t('Proof of payment')}
      </h2>
      <p className="text-sm text-slate-600">
        {t('Show this code to a parking officer. It can be checked without a connection.')}
      </p>
      {proof.data ? (
        <>
          <QrCode
            text={proof.data.Token}
            label={t('Proof of payment for {{plate}} in zone {{zone}} until {{time}}', {
              plate: proof.data.PlateNumber,
              zone: proof.data.ZoneNumber,
              time: formatTime(proof.data.EndsAt),
            })}
          />
          <details className="text-sm text-slate-600">
            <summary className="min-h-11 cursor-pointer content-center font-semibold text-brand-700">
              {t('Show the code as text')}
            </summary>
            <p className="font-mono text-xs break-all" data-testid="proof-token">
              {proof.data.Token}
            </p>
          </details>
        </>
      ) : proof.isError ? (
        <p className="text-sm text-slate-600">{t('The proof of payment could not be loaded.')}</p>
      ) : (
        <Skeleton rows={1} className="h-64" />
      )}
    </section>
  );
});

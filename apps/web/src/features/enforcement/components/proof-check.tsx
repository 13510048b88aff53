import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { formatTime } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import type { OfflinePack } from '../lib/offline-rights.ts';
import { verifyProof, type ProofResult } from '../lib/proof.ts';

const input = 'min-h-12 w-full rounded-xl border border-slate-300 bg-white px-3 text-lg';
const card = 'flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/** The officer's proof code check: a driver's signed code verified offline against the downloaded keys. */
export function ProofCheck({ pack }: { pack: OfflinePack }) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [proof, setProof] = useState<ProofResult | null>(null);
  return (
    <section className={card} aria-labelledby="proof-h">
      <h2 id="proof-h" className="text-lg font-bold">
        {t('Verify a proof code')}
      </h2>
      <label className="flex flex-col gap-1">
        {t('Proof code')}
        <textarea
          className={`${input} min-h-24 font-mono text-sm`}
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </label>
      <Button
        type="button"
        className="min-h-12"
        onClick={() => void verifyProof(token, pack.keys, new Date()).then(setProof)}
      >
        {t('Verify code')}
      </Button>
      {proof && (
        <p
          role="status"
          className={`rounded-xl p-3 font-bold ${proof.ok ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}`}
        >
          {proof.ok
            ? t('Valid proof: {{plate}} ({{state}}), zone {{zone}}, paid until {{time}}', {
                plate: proof.plate,
                state: proof.state,
                zone: proof.zone,
                time: formatTime(proof.endsAt),
              })
            : t(PROOF_REFUSALS[proof.reason])}
        </p>
      )}
    </section>
  );
}

const PROOF_REFUSALS = {
  expired: 'This proof code has ended',
  'unknown-key': 'This code was not signed by a known key: download again when online',
  invalid: 'This is not a valid proof code',
} as const;

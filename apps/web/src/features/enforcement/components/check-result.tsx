import CircleCheck from 'lucide-react/icons/circle-check';
import CircleX from 'lucide-react/icons/circle-x';
import { useTranslation } from '../../../lib/i18n.ts';
import type { EnforcementAnswer } from '@parkit/contract';
import { clock } from '../lib/operator-key.ts';

/** PAID until 14:35 in green or NOT PAID in red: large, high-contrast, readable in sunlight. */
export function CheckResult({ answer, checkedAt }: { answer: EnforcementAnswer; checkedAt: Date }) {
  const { t } = useTranslation();
  const paid = answer.Paid && answer.EndsAt;
  return (
    <section
      role="status"
      aria-live="assertive"
      className={`flex flex-col items-center gap-2 rounded-3xl p-6 text-center ${paid ? 'bg-green-700 text-white' : 'bg-red-700 text-white'}`}
    >
      {paid ? <CircleCheck className="size-14" aria-hidden /> : <CircleX className="size-14" aria-hidden />}
      <p className="text-5xl font-black tracking-tight">{paid ? t('PAID') : t('NOT PAID')}</p>
      {paid && <p className="text-2xl font-bold">{t('until {{time}}', { time: clock(answer.EndsAt!) })}</p>}
      <p className="mt-2 font-mono text-xl font-bold tracking-wider">
        {answer.PlateNumber} · {answer.PlateState}
      </p>
      <p className="text-lg">{t('Zone {{number}}', { number: answer.ZoneNumber })}</p>
      <p className="text-sm opacity-90">{t('Checked at {{time}}', { time: clock(checkedAt.toISOString()) })}</p>
    </section>
  );
}

import { useTranslation } from '../../../lib/i18n.ts';

const sizes = {
  md: { box: 'min-w-16 px-2 py-1.5', number: 'text-xl' },
  lg: { box: 'min-w-24 px-3 py-2', number: 'text-3xl' },
} as const;

/**
 * The zone number as drivers see it on the street sign (white on the operator's colour): the
 * one thing they compare between the sign and the screen. Reads as "Zone 1001".
 */
export function ZoneSign({ number, size = 'md' }: { number: string; size?: keyof typeof sizes }) {
  const { t } = useTranslation();
  const s = sizes[size];
  return (
    <span
      className={`inline-flex shrink-0 flex-col items-center rounded-lg border-2 border-white bg-brand-700 text-white shadow ring-1 ring-brand-800 ${s.box}`}
    >
      <span className="text-[10px] leading-none font-semibold tracking-widest uppercase opacity-90">{t('Zone')}</span>
      <span className={`leading-tight font-extrabold tabular-nums ${s.number}`}> {number}</span>
    </span>
  );
}

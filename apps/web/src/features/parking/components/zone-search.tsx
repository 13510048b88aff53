import { useId } from 'react';
import Search from 'lucide-react/icons/search';
import X from 'lucide-react/icons/x';
import { useTranslation } from '../../../lib/i18n.ts';

/** The search box: a zone number from the sign or a street address. */
export function ZoneSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div role="search" className="relative">
      <label htmlFor={id} className="sr-only">
        {t('Search by zone number or address')}
      </label>
      <Search
        className="pointer-events-none absolute top-1/2 inset-s-3 size-5 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <input
        id={id}
        type="search"
        inputMode="search"
        enterKeyHint="search"
        autoComplete="off"
        maxLength={100}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onChange('')}
        placeholder={t('Zone number or address')}
        className="min-h-12 w-full rounded-xl border border-slate-300 bg-white py-2 pe-11 ps-10 text-base text-slate-900 placeholder:text-slate-400 [&::-webkit-search-cancel-button]:hidden"
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange('')}
          aria-label={t('Clear search')}
          className="absolute top-1/2 inset-e-1 grid size-10 -translate-y-1/2 place-items-center rounded-full text-slate-500 hover:bg-slate-100"
        >
          <X className="size-5" aria-hidden />
        </button>
      )}
    </div>
  );
}

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import Languages from 'lucide-react/icons/languages';
import { LANGUAGES, useTranslation } from '../../lib/i18n.ts';

const LanguageOptions = lazy(() => import('./language-switch.tsx').then((m) => ({ default: m.LanguageOptions })));

/**
 * The first screens' language control (landing, login, register): a small button in the top
 * corner, named "Language" in the language shown and showing it, that opens the three choices. The
 * choices (language-switch.tsx, with the Devanagari face for the label हिन्दी) load only once it
 * is opened, so an English reader's first screen fetches nothing more. It stays open while the choices are
 * tried (arrow keys choose as they move); Escape closes it and puts the focus back on the button, as
 * does a press or the focus going anywhere outside it.
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const panel = useId();
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (!menu.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open]);
  const current = LANGUAGES.find((l) => l.code === i18n.language) ?? LANGUAGES[0];
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div
      ref={menu}
      className="absolute top-3 inset-e-3 z-10 flex flex-col items-end gap-2"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) close();
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`${t('Language')}: ${current.label}`}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex min-h-11 items-center gap-2 rounded-full bg-black/20 px-3 text-sm font-semibold text-white hover:bg-black/30"
      >
        <Languages className="size-5" aria-hidden />
        <span lang={current.code}>{current.label}</span>
      </button>
      {open && (
        <fieldset id={panel} className="w-72 max-w-[calc(100vw-1.5rem)] rounded-2xl bg-white p-3 shadow-xl">
          <legend className="sr-only">{t('Language')}</legend>
          <Suspense fallback={<div className="min-h-13" />}>
            <LanguageOptions />
          </Suspense>
        </fieldset>
      )}
    </div>
  );
}

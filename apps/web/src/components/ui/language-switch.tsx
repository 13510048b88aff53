import { useEffect, useId, useRef, useState } from 'react';
import Languages from 'lucide-react/icons/languages';
import { LANGUAGES, setLanguage, useTranslation } from '../../lib/i18n.ts';

/**
 * The label हिन्दी is drawn on an English or Spanish screen too: the Devanagari face of its weight
 * is loaded for it (lib/hindi-font.ts; issue 33: a machine without a Devanagari font drew boxes).
 */
function useLabelFont() {
  useEffect(() => {
    // Offline: the label stays as the device draws it.
    void import('../../lib/hindi-font.ts').then((font) => font.hindiFontReady([600])).catch(() => {});
  }, []);
}

/**
 * English / हिन्दी / Español as radio buttons (arrow keys move between them), each label in its own
 * language. The choice is remembered (lib/i18n.ts; it survives logout too).
 */
function LanguageOptions() {
  const { i18n } = useTranslation();
  const name = useId();
  useLabelFont();
  return (
    <div className="grid grid-cols-3 gap-1 rounded-xl bg-slate-100 p-1">
      {LANGUAGES.map(({ code, label }) => (
        <label
          key={code}
          lang={code}
          className="flex min-h-11 cursor-pointer items-center justify-center rounded-lg px-1 text-center text-sm font-semibold text-slate-600 has-[:checked]:bg-white has-[:checked]:text-brand-800 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
        >
          <input
            type="radio"
            name={`language-${name}`}
            value={code}
            checked={i18n.language === code}
            onChange={() => void setLanguage(code)}
            className="sr-only"
          />
          {label}
        </label>
      ))}
    </div>
  );
}

/** The profile's language card. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <legend className="sr-only">{t('Language')}</legend>
      <div className="mb-3 flex items-center gap-2 text-base font-semibold text-slate-900" aria-hidden>
        <Languages className="size-5 text-brand-700" />
        {t('Language')}
      </div>
      <LanguageOptions />
    </fieldset>
  );
}

/**
 * The first screens' language control (landing, login, register): a small button in the top
 * corner, named "Language" in the language shown and showing it, that opens the three choices. The
 * choices (and the Devanagari face for the label हिन्दी) load only once it is opened, so an
 * English reader's first screen fetches nothing more (issue 33). It stays open while the choices are
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
        className="inline-flex min-h-11 items-center gap-2 rounded-full bg-white/15 px-3 text-sm font-semibold text-white hover:bg-white/25"
      >
        <Languages className="size-5" aria-hidden />
        <span lang={current.code}>{current.label}</span>
      </button>
      {open && (
        <fieldset id={panel} className="w-72 max-w-[calc(100vw-1.5rem)] rounded-2xl bg-white p-3 shadow-xl">
          <legend className="sr-only">{t('Language')}</legend>
          <LanguageOptions />
        </fieldset>
      )}
    </div>
  );
}

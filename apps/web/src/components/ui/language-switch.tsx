import { useEffect, useId } from 'react';
import Languages from 'lucide-react/icons/languages';
import { LANGUAGES, setLanguage, useTranslation, type Language } from '../../lib/i18n.ts';
import { api } from '../../lib/api-client.ts';
import { getSession, isMember } from '../../lib/session-store.ts';

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
 * language. The choice is remembered (lib/i18n.ts; it survives logout too); a signed-in member's is
 * also saved on the server at once, so their texts and notifications follow it (offline, the next
 * sign-in saves it).
 */
export function LanguageOptions() {
  const { i18n } = useTranslation();
  const name = useId();
  useLabelFont();
  const choose = (code: Language) => {
    void setLanguage(code);
    if (isMember(getSession()))
      api.post('/api/Account/Language', { Language: code }, { showError: false }).catch(() => {});
  };
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
            onChange={() => choose(code)}
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

/**
 * All the Hindi text (locales/hi/<feature>.json) as one module, so one chunk: i18n.ts imports it
 * only when the language is Hindi (issue 9: it rode in the first chunk for everyone).
 */
const files = import.meta.glob<Record<string, string>>('../locales/hi/*.json', { eager: true, import: 'default' });
export const hindi: Record<string, string> = Object.assign({}, ...Object.values(files));

import type { Messages } from '@lingui/core';

/**
 * All the Hindi text (locales/hi/<feature>.json, compiled by apps/web/catalogs.ts) as one module,
 * so one chunk: i18n.ts imports it only when the language is Hindi (it rode in the first
 * chunk for everyone).
 */
const files = import.meta.glob<Messages>('../locales/hi/*.json', { eager: true, import: 'default' });
export const hindi: Messages = Object.assign({}, ...Object.values(files));

import type { Messages } from '@lingui/core';

/**
 * All the Spanish text (locales/es/<feature>.json, compiled by apps/web/catalogs.ts) as one
 * module, so one chunk: i18n.ts imports it only when the language is Spanish, as it
 * does Hindi (lib/hindi.ts). Spanish needs no font of its own: the app's Latin face has its letters.
 */
const files = import.meta.glob<Messages>('../locales/es/*.json', { eager: true, import: 'default' });
export const spanish: Messages = Object.assign({}, ...Object.values(files));

import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

/**
 * The translation catalogs (src/locales/<language>/<feature>.json: the English text as the key,
 * docs/decisions/014-i18n-lingui.md) compiled when they are built, so the app ships Lingui's
 * compiled messages and not the ICU parser. A catalog text is written as the keys are, with
 * `{{name}}` placeholders; a count's forms in ICU's plural syntax, `#` being the count in the
 * language's number format:
 *
 *   "{{count}} sessions on the map": "{count, plural, one {# session on the map} other {# sessions on the map}}"
 *
 * An apostrophe is always itself (ICU would quote with it). An empty text is left out, so the
 * English one shows.
 */
export function toIcu(text: string): string {
  return text.replaceAll("'", "''").replace(/\{\{\s*([^{}]*?[^{}\s])\s*\}\}/g, '{$1}');
}

export function compileCatalog(catalog: Record<string, string>, file = 'a catalog'): Record<string, CompiledMessage> {
  const out: Record<string, CompiledMessage> = {};
  for (const [key, text] of Object.entries(catalog)) {
    if (text === '') continue;
    try {
      out[key] = compileMessageOrThrow(toIcu(text));
    } catch (err) {
      throw new Error(
        `${file}: the text of "${key}" is not a valid message: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }
  return out;
}

const CATALOG = /[\\/]src[\\/]locales[\\/][\w-]+[\\/][\w-]+\.json$/;

/** Vite: a catalog imported by the app (lib/hindi.ts, lib/i18n.ts) arrives compiled. */
export function compiledCatalogs(): Plugin {
  return {
    name: 'parkit:compiled-catalogs',
    // Before Vite's own JSON plugin, which turns the compiled JSON into a module.
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!CATALOG.test(file)) return null;
      return { code: JSON.stringify(compileCatalog(JSON.parse(code) as Record<string, string>, file)), map: null };
    },
  };
}

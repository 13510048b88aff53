import { resolve } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** Where the build writes the list; the server (apps/server/src/plugins/external/spa.ts) reads it. */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/**
 * For a page whose first screen is made of lazy chunks (a path and the modules its routes load,
 * as app/router.tsx has them), writes the chunk files that screen needs beyond the entry, so that
 * the server puts them in that page as `<link rel="modulepreload">`: the browser then fetches
 * them beside the entry instead of after it has run (issue 9: /homepage waited for the entry,
 * then fetched its chunks). A module that is not the start of a chunk fails the build, so a
 * renamed route does not silently lose its preload.
 */
export function routePreloads(pages: Record<string, string[]>): Plugin {
  let root = process.cwd();
  let base = '/';
  return {
    name: 'parkit:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const result = preloadsFor(bundle, pages, root, base);
      if (typeof result === 'string') this.error(result);
      else this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(result, null, 2) });
    },
  };
}

/** path → the files to preload, in load order; or the error. */
export function preloadsFor(bundle: OutputBundle, pages: Record<string, string[]>, root: string, base: string): Record<string, string[]> | string {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const withImports = (fileName: string, into: Set<string>) => {
    if (into.has(fileName)) return;
    into.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type === 'chunk') for (const dep of chunk.imports) withImports(dep, into);
  };
  // What the entry loads already (index.html has it).
  const entry = new Set<string>();
  for (const c of chunks) if (c.isEntry) withImports(c.fileName, entry);
  const result: Record<string, string[]> = {};
  for (const [path, modules] of Object.entries(pages)) {
    const files = new Set<string>();
    for (const module of modules) {
      const id = resolve(root, module);
      const chunk = chunks.find((c) => c.facadeModuleId === id);
      if (!chunk) return `route-preloads: ${module} (for ${path}) starts no chunk: is it still loaded lazily by app/router.tsx?`;
      withImports(chunk.fileName, files);
    }
    result[path] = [...files].filter((f) => !entry.has(f)).map((f) => base + f);
  }
  return result;
}

import { resolve } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;
type CodeSplittingGroup = Rolldown.CodeSplittingGroup;

/** Where the build writes the list; the server (apps/server/src/plugins/external/spa.ts) reads it. */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/**
 * For a page whose first screen is made of lazy chunks (a path and the modules its routes load,
 * as app/router.tsx has them), writes the chunk files that screen needs beyond the entry, so that
 * the server puts them in that page as `<link rel="modulepreload">`: the browser then fetches
 * them beside the entry instead of after it has run (/homepage waited for the entry,
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
export function preloadsFor(
  bundle: OutputBundle,
  pages: Record<string, string[]>,
  root: string,
  base: string,
): Record<string, string[]> | string {
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
      // The chunk it starts, or the one firstScreenChunk put it in.
      const chunk =
        chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => !c.isEntry && c.moduleIds.includes(id));
      if (!chunk)
        return `route-preloads: ${module} (for ${path}) is in no lazy chunk: is it still loaded lazily by app/router.tsx?`;
      withImports(chunk.fileName, files);
    }
    result[path] = [...files].filter((f) => !entry.has(f)).map((f) => base + f);
  }
  return result;
}

/**
 * One chunk for a first screen: the modules routePreloads lists for it (in load order) and what
 * they import statically that the entry does not have, instead of one chunk per shared module
 * (/homepage fetched 14 chunks of 0.3-19 KB beside the entry; on a phone's slow 4G every
 * few requests cost a round trip). One, not one per module: with /homepage's three (the data
 * layer, the tabs, the screen) Lighthouse's first paint came 163 ms later (1,801 against 1,638 ms,
 * medians of 5 in one run); the other screens of the data layer fetch the tabs and the home
 * screen with it (/login: 18.0 KB gzip against the data layer's 15.6). Schemas (a module that
 * imports zod) and zod stay out: a screen reaches the contract through its one entry, which would
 * bring every schema; the contract's plain modules (messages, formats) come along and are dropped
 * if unused. The group's test reads the module graph, recorded when every module is read.
 */
export function firstScreenChunk(
  name: string,
  modules: string[],
  priority: number,
): { plugin: Plugin; group: CodeSplittingGroup; has: (id: string) => boolean } {
  const inChunk = new Set<string>();
  let root = process.cwd();
  const plugin: Plugin = {
    name: `parkit:first-screen-chunk:${name}`,
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildEnd() {
      inChunk.clear();
      const isZod = (id: string) => /[\\/]node_modules[\\/]zod[\\/]/.test(id);
      const imports = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
      /** The modules `from` imports statically, through any depth, but not past `stop`. */
      const reach = (from: string[], stop: Set<string>) => {
        const found = new Set<string>();
        const stack = [...from];
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (found.has(id) || stop.has(id) || id.startsWith('\0') || isZod(id) || imports(id).some(isZod)) continue;
          found.add(id);
          stack.push(...imports(id));
        }
        return found;
      };
      // What the entry has already (index.html loads it); the screen's chunk holds the rest.
      const entry = reach(
        [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry),
        new Set(),
      );
      const ids = modules.map((module) => {
        const id = resolve(root, module);
        if (!this.getModuleInfo(id)) this.error(`first-screen-chunk: ${module} is not in the build`);
        return id;
      });
      for (const m of reach(ids, entry)) inChunk.add(m);
    },
  };
  const group: CodeSplittingGroup = {
    name,
    test: (id: string) => inChunk.has(id),
    // Above the groups of shared code (the data layer's rest, toasts, icons); the entry's own
    // modules are never in it.
    priority,
    // The group holds the screen's closure already; what it imports beyond it is the entry's.
    includeDependenciesRecursively: false,
  };
  return { plugin, group, has: (id) => inChunk.has(id) };
}

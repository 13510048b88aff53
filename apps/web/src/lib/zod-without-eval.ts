/**
 * zod compiles its parsers with `new Function` when it may; the app's Content Security Policy has
 * no 'unsafe-eval', and zod's probe for it (made as the first object schema is built, on the first
 * screen with a form) is itself reported as a violation in the console. The interpreted parsers
 * give the same answers. zod keeps its settings in `globalThis.__zod_globalConfig` (what its
 * `config()` writes, and reads from the first schema on): set here, by the entry (main.tsx),
 * before any chunk loads zod, and without bringing zod into the entry's chunk.
 * zod-without-eval.test.ts checks that zod still reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};

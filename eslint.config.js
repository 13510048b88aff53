import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './tools/eslint-boundaries.js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The web app's features are its folders: a new one is covered by the boundaries without an edit here.
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const server = 'apps/server/src';
// The server's domains, lowest first: each may import those before it, never one after it. The
// last three are peers: none imports another.
const serverDomains = ['zones', 'wallet', 'members', 'vehicles', 'parking', 'auth', ['history', 'enforcement', 'support']];
// A button's look on a link: a rounded box filled or ringed in the brand colour.
const BUTTON_LOOK = String.raw`/\brounded-(lg|xl|2xl)\b.*(^|\s)(bg|ring)-brand-|(^|\s)(bg|ring)-brand-.*\brounded-(lg|xl|2xl)\b/`;

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/drizzle/**', '**/test-results/**', '**/playwright-report/**', '.data/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, local: boundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // STYLE.md: imports flow one way; features never import each other or the app layer.
      'local/restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((f) => ({
              target: `apps/web/src/features/${f}`,
              from: ['apps/web/src/features'],
              except: [`apps/web/src/features/${f}`],
              message: 'A feature does not import another feature; compose them in app/routes',
            })),
            { target: 'apps/web/src/features', from: ['apps/web/src/app'], message: 'Features do not import the app layer' },
            {
              target: 'apps/web/src/components',
              from: ['apps/web/src/features', 'apps/web/src/app'],
              message: 'Shared components do not import features or the app layer',
            },
            {
              target: 'apps/web/src/lib',
              from: ['apps/web/src/features', 'apps/web/src/app', 'apps/web/src/components'],
              message: 'lib does not import features, the app layer or components',
            },
          ],
        },
      ],
      // Issue 9: one icon, one module. Through the package's index every icon is in the module
      // graph, so the build cannot tell the first screens' icons from the rest (route-preloads.ts)
      // and /homepage fetched every screen's icons.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'lucide-react', message: "Import each icon from its own module: import House from 'lucide-react/icons/house'" }] },
      ],
      // Issue 7: a link styled as a button is one component (components/ui/button-link.tsx).
      'no-restricted-syntax': [
        'error',
        {
          selector: `JSXOpeningElement[name.name=/^(Link|NavLink|a)$/] > JSXAttribute[name.name='className'] :matches(Literal[value=${BUTTON_LOOK}], TemplateElement[value.raw=${BUTTON_LOOK}])`,
          message: 'A link that looks like a button is <ButtonLink> (components/ui/button-link.tsx)',
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    plugins: { local: boundaries },
    rules: {
      // The server's folders, lowest first (apps/server/src/README.md): a folder imports only those
      // before it; peers (a list) import each other not at all; a domain is entered through its
      // index.ts. Routes sit above the domains, infrastructure below them.
      'local/layers': [
        'error',
        {
          root: server,
          order: [
            'paths.ts',
            'config.ts',
            'lib',
            'db',
            'infra',
            ...serverDomains,
            'plugins',
            'routes',
            'app.ts',
            'seeds',
            'server-instance.ts',
            'server.ts',
          ],
          domains: serverDomains.flat(),
        },
      ],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@parkit/server', '@parkit/web', '../../apps/*'] }],
    },
  },
);

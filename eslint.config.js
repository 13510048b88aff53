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
const serverDomains = [
  'zones',
  'pricing',
  'opendata',
  'wallet',
  'members',
  'vehicles',
  'parking',
  'auth',
  'operators',
  ['history', 'enforcement', 'support', 'reports', 'apds'],
  'permits',
  'citations',
  'privacy',
];
// Library internals (a library's undocumented parts) are reached in one module, which tests each
// assumption it makes (test/library-internals.test.ts).
const LIBRARY_INTERNALS = `${server}/lib/library-internals.ts`;
const internalsImports = [
  { name: 'helmet', message: 'helmet is used through helmetHeaders() (lib/library-internals.ts)' },
  {
    name: 'drizzle-orm/pg-core',
    importNames: ['PgSession', 'PgDialect'],
    message: "drizzle's session is reached only in lib/library-internals.ts (sessionOf, namedQueryRows)",
  },
];
const internalsSyntax = [
  {
    selector: "MemberExpression[property.name='$client']",
    message: "drizzle's $client is reached only in lib/library-internals.ts (poolOf)",
  },
];
// docs/data-access.md: a route file reaches the database only through its domain's functions.
const DB_IN_ROUTES = 'No SQL or database access in a route file: call a function of the domain (docs/data-access.md)';
const QUERY_METHODS = '/^(select|selectDistinct|selectDistinctOn|insert|update|delete|execute|with|\\$count|\\$with)$/';
const routeDbImports = {
  paths: [...internalsImports, { name: 'drizzle-orm', message: DB_IN_ROUTES, allowTypeImports: true }],
  patterns: [
    {
      group: ['drizzle-orm/*', '**/db/schema', '**/db/schema/*', '**/db/client.ts', '**/db/prepared.ts'],
      message: DB_IN_ROUTES,
      allowTypeImports: true,
    },
  ],
};
const routeDbSyntax = [
  ...internalsSyntax,
  {
    selector: `CallExpression[callee.property.name=${QUERY_METHODS}][callee.object.name=/^(db|tx)$/]`,
    message: DB_IN_ROUTES,
  },
  {
    selector: `CallExpression[callee.property.name=${QUERY_METHODS}][callee.object.property.name='db']`,
    message: DB_IN_ROUTES,
  },
];
// A button's look on a link: a rounded box filled or ringed in the brand colour.
const BUTTON_LOOK = String.raw`/\brounded-(lg|xl|2xl)\b.*(^|\s)(bg|ring)-brand-|(^|\s)(bg|ring)-brand-.*\brounded-(lg|xl|2xl)\b/`;

// The web's one way for each thing, as imports it may not make. Each entry names the module that
// is the one way; that module (and the tests that watch the library) are let off below.
const ONE_ICON = {
  name: 'lucide-react',
  message: "Import each icon from its own module: import House from 'lucide-react/icons/house'",
};
const ONE_TOAST = {
  name: 'sonner',
  allowTypeImports: true,
  message: 'Toast through lib/toasts.tsx (`toast.success`, `toast.error`): it loads sonner after the first screen',
};
const ONE_FORM = [
  {
    name: 'react-hook-form',
    importNames: ['useForm'],
    message: 'A form starts with useSchemaForm (lib/use-schema-form.ts)',
  },
  {
    name: '@hookform/resolvers/zod',
    message: 'A form starts with useSchemaForm (lib/use-schema-form.ts), which checks it with the schema',
  },
];
const ONE_MONEY = {
  name: '@parkit/contract',
  importNames: ['formatMoney'],
  message: 'An amount shows through lib/money.ts (useMoney), in the configured currency',
};
const webImports = (...paths) => ['error', { paths: [ONE_ICON, ...paths] }];
const webSyntax = [
  // Issue 7: a link styled as a button is one component (components/ui/button-link.tsx).
  {
    selector: `JSXOpeningElement[name.name=/^(Link|NavLink|a)$/] > JSXAttribute[name.name='className'] :matches(Literal[value=${BUTTON_LOOK}], TemplateElement[value.raw=${BUTTON_LOOK}])`,
    message: 'A link that looks like a button is <ButtonLink> (components/ui/button-link.tsx)',
  },
  // A form kept in plain state: a component with a <form> (or a *Form) it submits and useState,
  // but no useSchemaForm.
  {
    selector:
      ":function:has(JSXOpeningElement[name.name=/^(form|[A-Z]\\w*Form)$/] > JSXAttribute[name.name='onSubmit']):has(CallExpression[callee.name=/^(useState|useReducer)$/]):not(:has(CallExpression[callee.name='useSchemaForm']))",
    message: 'A form starts with useSchemaForm (lib/use-schema-form.ts), not with useState',
  },
];
// A hard-coded dollar ('$', `$${…}`, a JSX "$"): the currency is the server's (AccountDetails.CurrencySymbol).
const DOLLAR = "An amount shows through lib/money.ts (useMoney), in the configured currency, not with a hard-coded '$'";
const NO_DOLLAR = [
  { selector: "Literal[value='$'], JSXText[value=/^\\s*\\$\\s*$/]", message: DOLLAR },
  { selector: 'TemplateLiteral > TemplateElement[tail=false][value.cooked=/\\$$/]', message: DOLLAR },
];
// A feature's cache keys come from its api/keys.ts (or lib/query-keys.ts when shared), never
// written in place: a key string copied from another feature walks around the boundaries.
const FEATURE_SYNTAX = [
  {
    selector: "Property[key.name='queryKey'] > ArrayExpression",
    message: "A query key comes from the feature's api/keys.ts, or lib/query-keys.ts when features share it",
  },
  {
    selector: ':matches(FunctionDeclaration, VariableDeclarator)[id.name=/^use(AccountDetails|Countdown|Money)$/]',
    message: 'There is one of this hook, in lib/ (account-details.ts, use-countdown.ts, money.ts)',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/drizzle/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '.data/**',
      '.stryker-tmp/**',
      'reports/**',
      // Generated from the APDS document by openapi-typescript (docs/apds.md#the-generated-client).
      'apps/server/test/support/apds-client/apds-schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // One import statement per module: a domain's index is entered once per file.
      'no-duplicate-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, local: boundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // docs/conventions.md#imports-flow-one-way: imports flow one way; features never import each other or the app layer.
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
            {
              target: 'apps/web/src/features',
              from: ['apps/web/src/app'],
              message: 'Features do not import the app layer',
            },
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
      'no-restricted-imports': webImports(ONE_TOAST, ...ONE_FORM, ONE_MONEY),
      'no-restricted-syntax': ['error', ...webSyntax, ...NO_DOLLAR],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/features/*/api/keys.ts'],
    rules: { 'no-restricted-syntax': ['error', ...webSyntax, ...NO_DOLLAR, ...FEATURE_SYNTAX] },
  },
  {
    // A feature's hooks are in its hooks/ folder (its data hooks beside their fetchers in api/).
    files: ['apps/web/src/features/*/{api,components,lib,testing}/**/use-*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...webSyntax,
        ...NO_DOLLAR,
        ...FEATURE_SYNTAX,
        { selector: 'Program', message: "A feature's hook lives in its hooks/ folder" },
      ],
    },
  },
  {
    // The one way of each thing, and the tests that watch the library behind it (a test may
    // spy on sonner, and write the dollars it expects).
    files: ['apps/web/src/lib/toasts.tsx', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': webImports(...ONE_FORM, ONE_MONEY),
      'no-restricted-syntax': ['error', ...webSyntax],
    },
  },
  {
    files: ['apps/web/src/lib/use-schema-form.ts'],
    rules: { 'no-restricted-imports': webImports(ONE_TOAST, ONE_MONEY) },
  },
  {
    files: ['apps/web/src/lib/money.ts', 'apps/web/src/app/first-screens-intl.test.ts'],
    rules: { 'no-restricted-imports': webImports(ONE_TOAST, ...ONE_FORM) },
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
    files: [`${server}/**/*.ts`],
    ignores: [LIBRARY_INTERNALS, '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: internalsImports }],
      'no-restricted-syntax': ['error', ...internalsSyntax],
    },
  },
  {
    files: [`${server}/routes/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', routeDbImports],
      'no-restricted-syntax': ['error', ...routeDbSyntax],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@parkit/server', '@parkit/web', '../../apps/*'] }],
    },
  },
);

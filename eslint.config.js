import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './tools/eslint-boundaries.js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/drizzle/**', '**/test-results/**', '**/playwright-report/**', '.data/**'] },
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
            ...['auth', 'account', 'vehicles', 'parking', 'profile'].map((f) => ({
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
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@parkit/server', '@parkit/web', '../../apps/*'] }],
    },
  },
);

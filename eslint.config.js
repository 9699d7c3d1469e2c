import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';

const { createNodeResolver } = importX;
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The boundaries between layers and features (docs/architecture.md explains why each one exists).
const root = import.meta.dirname;
const from = (...parts) => path.join(root, ...parts);
const featuresOf = (app) =>
  readdirSync(from('apps', app, 'src', 'features'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const serverZones = [
  ...featuresOf('server').map((feature) => ({
    target: from('apps/server/src/features', feature),
    from: from('apps/server/src/features/*/*.repository.ts'),
    except: [from('apps/server/src/features', feature, '*.repository.ts')],
    message: "A feature uses another feature through that feature's service, never its repository.",
  })),
  {
    target: from('apps/server/src/plugins'),
    from: from('apps/server/src/features'),
    message: 'Plugins are plumbing that features build on: they may not import a feature.',
  },
];

const webZones = [
  ...featuresOf('web').map((feature) => ({
    target: from('apps/web/src/features', feature),
    from: from('apps/web/src/features'),
    except: [`./${feature}`],
    message: 'Web features do not import each other: move what several use to ui/ or lib/.',
  })),
  {
    target: from('apps/web/src/features'),
    from: from('apps/web/src/app'),
    message: 'app/ imports features, never the other way round: move what features need to ui/ or lib/.',
  },
  {
    target: [from('apps/web/src/ui'), from('apps/web/src/lib')],
    from: [from('apps/web/src/features'), from('apps/web/src/app')],
    message: 'ui/ and lib/ are shared by every feature, so they may not import a feature or the app shell.',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'e2e/artifacts/**', 'apps/web/public/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...serverZones,
            ...webZones,
            {
              target: [
                from('apps/server/src/**/!(*.test).ts'),
                from('apps/web/src/**/!(*.test).{ts,tsx}'),
                from('packages/shared/src/**/!(*.test).ts'),
              ],
              from: from('test-support'),
              message: 'test-support/ is for tests and benchmarks: application code never imports it.',
            },
            {
              target: from('packages/shared'),
              from: [from('apps'), from('e2e'), from('bench')],
              message: 'packages/shared is pure: it may not import the apps.',
            },
          ],
        },
      ],
    },
  },
  {
    // SQL only in repositories (and migrations and db/): a service or route that needs data calls one.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/**/*.fixtures.ts',
      'apps/server/src/db/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'SQL lives in *.repository.ts files: call a repository function (docs/architecture.md).',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql'], MemberExpression[object.name='sql']",
          message: 'SQL lives in *.repository.ts files: call a repository function (docs/architecture.md).',
        },
      ],
    },
  },
);

// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import platBoundaries from './scripts/eslint/import-boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', 'playwright-report/', 'assets/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { plat: platBoundaries },
    rules: {
      'plat/import-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['shared/**', 'electron/**', 'scripts/**', 'e2e/**', '*.config.*'],
    languageOptions: { globals: globals.node },
  },
  {
    // Playwright fixtures take `{}` when they use no other fixture.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The raw bridge is the preload's business; the renderer talks to window.plat only.
      'no-restricted-globals': ['error', { name: 'require', message: 'The renderer has no require.' }],
      // One spelling per query key: a key written in place could differ from the one that fills it.
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='queryKey'] > ArrayExpression", message: 'Query keys live in renderer/platform/query-keys.ts.' },
      ],
    },
  },
);

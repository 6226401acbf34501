import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Module boundaries (STYLE.md): lib/ imports nothing of ours and no node:*;
// components/ imports lib/ only; server components do not reach into each other's internals.
const ours = (dirs) => dirs.map((d) => ({ group: [`@/${d}/*`, `**/${d}/*`], message: `no imports from ${d}/ here (see STYLE.md boundaries)` }));

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      complexity: ['warn', 15],
      'max-depth': ['warn', 4],
      'max-params': ['warn', 5],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...ours(['server', 'components', 'app']), { group: ['node:*'], message: 'lib/ runs in the browser too' }, { group: ['react', 'react-dom'], message: 'lib/ has no React' }] }],
    },
  },
  {
    files: ['components/**/*.ts', 'components/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: ours(['server', 'app']) }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-console': 'error', 'no-restricted-imports': ['error', { patterns: ours(['components', 'app']) }] },
  },
);

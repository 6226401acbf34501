import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Module boundaries (STYLE.md, docs/architecture.md "What each part may import"): lib/ imports
// nothing of ours and no node:*; components/ imports lib/ only; a server component imports the
// shared server modules (kube/, http/, log, data-dir) and lib/, plus only the other components'
// public surfaces listed in SERVER_ALLOWED; tests and testing/ helpers may reach anything.
const ours = (dirs) => dirs.map((d) => ({ group: [`@/${d}/*`, `**/${d}/*`], message: `no imports from ${d}/ here (see STYLE.md boundaries)` }));

const SERVER_COMPONENTS = ['apiserver', 'virt-api', 'virt-controller', 'virt-handler', 'virt-launcher', 'node', 'up', 'console', 'images', 'bundle', 'virtctl', 'storage', 'cdi', 'access-tokens', 'control-plane', 'kube-controllers'];
/** component → what it may import of other components (a whole component, or one module of it) */
const SERVER_ALLOWED = {
  apiserver: [],
  'virt-api': [],
  'virt-controller': ['images'],
  'virt-handler': ['virt-launcher/protocol', 'virt-launcher/launcher-client'],
  'virt-launcher': ['images'],
  node: ['bundle', 'virt-launcher/kvm-probe', 'images', 'kube-controllers/start'],
  up: ['bundle', 'images', 'storage/storage-classes', 'console/login-link'],
  console: ['virt-api'],
  images: [],
  bundle: [],
  virtctl: [],
  storage: ['cdi', 'node/cli-flags'],
  cdi: ['images'],
  'access-tokens': [],
  // hosts components in one process: their `kv <command>` runners only, nothing else of theirs
  'control-plane': ['node/main-scheduler', 'node/main-kubelet', 'virt-controller/main', 'storage/main', 'virt-handler/main'],
  'kube-controllers': ['node/node-affinity', 'node/taints', 'node/cli-flags'],
};

/** no-restricted-imports patterns that keep `component` out of the other components' internals */
function componentBoundary(component) {
  const allowed = SERVER_ALLOWED[component];
  return SERVER_COMPONENTS.filter((other) => other !== component && !allowed.includes(other)).map((other) => ({
    group: [`**/${other}/*`, `**/${other}/**`, ...allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => `!**/${a}`)],
    message: `server/${component} may not import server/${other} internals (docs/architecture.md lists what each part may import)`,
  }));
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.next/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // product code has no explicit `any`; tests and their support code are held by the ratchet
      // (scripts/lint/any-budget.mjs: a file may not gain one), see the override below
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      complexity: ['warn', 15],
      'max-depth': ['warn', 4],
      'max-params': ['warn', 5],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', 'e2e/**', 'server/virt-api/admission/test-fixtures.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
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
  {
    // tests and testing/ helpers may drive Next's route handlers (app/**/route.ts) without a Next build
    files: ['server/**/*.test.ts', 'server/**/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ours(['components']) }] },
  },
  ...SERVER_COMPONENTS.map((component) => ({
    files: [`server/${component}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ours(['components', 'app']), ...componentBoundary(component)] }] },
  })),
);

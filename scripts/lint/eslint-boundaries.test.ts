/**
 * The linter keeps the architecture: fixtures linted as if they sat in a component's folder (ESLint's
 * Node API, the project's own eslint.config.mjs) must fail on a forbidden cross-component import and
 * pass on the public surfaces docs/architecture.md allows; the `any` ratchet counts a new `any`.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { overBudget } from './any-budget.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2).map((m) => m.message);
}

describe('component boundaries', () => {
  it.each([
    ['server/virt-api/x.ts', "import { renderVMI } from '../virt-controller/vm/render-vmi';", /server\/virt-api may not import server\/virt-controller internals/],
    ['server/virt-handler/x.ts', "import { QmpClient } from '../virt-launcher/qmp-client';", /server\/virt-handler may not import server\/virt-launcher internals/],
    ['server/virt-handler/migration/x.ts', "import { x } from '../../virt-launcher/disk-mirror';", /may not import server\/virt-launcher internals/],
    ['server/apiserver/rest/x.ts', "import { x } from '../../virt-api/api-error';", /server\/apiserver may not import server\/virt-api internals/],
    ['server/node/x.ts', "import { x } from '../virt-handler/pod-dir';", /server\/node may not import server\/virt-handler internals/],
    ['lib/kubevirt/x.ts', "import { x } from '../../server/kube/clients';", /no imports from server\/ here/],
    ['components/x.tsx', "import { x } from '../server/kube/clients';", /no imports from server\/ here/],
    ['server/control-plane/x.ts', "import { Kubelet } from '../node/kubelet';", /server\/control-plane may not import server\/node internals/],
  ])('%s: %s is an error', async (file, code, message) => {
    expect(await boundaryErrors(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['server/virt-handler/x.ts', "import type { DomainStatus } from '../virt-launcher/protocol';\nimport { LauncherClient } from '../virt-launcher/launcher-client';"],
    ['server/virt-controller/x.ts', "import { x } from '../images/image-store';\nimport { y } from '../kube/clients';\nimport { z } from '../../lib/kubevirt';"],
    ['server/node/x.ts', "import { detectAccel } from '../virt-launcher/kvm-probe';"],
    ['server/control-plane/x.ts', "import { runNodeCommand } from '../node/main-kubelet';\nimport { runHandlerCommand } from '../virt-handler/main';"],
    ['server/virt-api/x.test.ts', "import { renderVMI } from '../virt-controller/vm/render-vmi';"],
  ])('%s: allowed imports pass', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});

describe('no new any (scripts/lint/any-budget.mjs, run by npm run lint)', () => {
  it('the ratchet counts each explicit any', async () => {
    const strict = new ESLint({ cwd: root, overrideConfig: { rules: { '@typescript-eslint/no-explicit-any': 'error' } } });
    const [result] = await strict.lintText('export const f = (x: any): any => x;\n', { filePath: `${root}/server/kube/x.ts` });
    expect(result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-explicit-any')).toHaveLength(2);
  });

  it('npm run lint refuses any explicit any in product code; tests and their support code are left to the ratchet', async () => {
    const lint = new ESLint({ cwd: root });
    const code = 'export const f = (x: any): any => x;\n';
    const anys = async (file: string) => (await lint.lintText(code, { filePath: `${root}/${file}` }))[0].messages.filter((m) => m.ruleId === '@typescript-eslint/no-explicit-any' && m.severity === 2).length;
    expect(await anys('server/kube/x.ts')).toBe(2);
    expect(await anys('lib/kubevirt/x.ts')).toBe(2);
    expect(await anys('components/x.tsx')).toBe(2);
    expect(await anys('server/kube/x.test.ts')).toBe(0);
    expect(await anys('e2e/support/x.ts')).toBe(0);
  });

  it.each([
    ['a new file with an any', { 'server/kube/new.ts': 1 }, {}, [['server/kube/new.ts', 1, 0]]],
    ['one more any in a file', { 'server/a.ts': 4 }, { 'server/a.ts': 3 }, [['server/a.ts', 4, 3]]],
    ['the same count', { 'server/a.ts': 3 }, { 'server/a.ts': 3 }, []],
    ['fewer (typed away)', { 'server/a.ts': 1 }, { 'server/a.ts': 3 }, []],
  ])('%s', (_name, counts, budget, over) => {
    expect(overBudget(counts, budget)).toEqual(over);
  });
});

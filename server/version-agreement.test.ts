import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { KUBEVIRT_TS_VERSION } from '../lib/kubevirt/version';

it('the version components report is package.json\'s', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  expect(KUBEVIRT_TS_VERSION).toBe(`v${pkg.version}`);
});

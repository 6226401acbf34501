/**
 * The console journey against kubevirt-ts installed from deploy/ onto `kv up --bare` (issue 16;
 * global setup: e2e/cluster-journey.setup.ts). The console is the `kubevirt-console` Deployment's Pod,
 * reached through `kubectl port-forward`, acting on the API server with in-cluster config only; the
 * user signs in with a `kubectl create token` token. Create the demo VM from the form → Running → the
 * VNC canvas draws the guest → migrate to the other node from the console → the VNC console shows the
 * guest again → stop → delete. Prints the journey's time. Screenshots in test-results/journey/.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { VirtualMachineInstance } from '../lib/kubevirt';
import { canvasColours, getObject, snap } from './helpers';

test.describe.configure({ mode: 'serial' });

const VM = 'journey-demo';
const NS = 'default';
const vmiPath = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${VM}`;
const consoleUrl = () => process.env.KV_E2E_CONSOLE_URL!;
let page: Page;
let started = 0;

test.beforeAll(async ({ browser }) => {
  started = performance.now();
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page.close();
  console.log(`cluster journey: ${((performance.now() - started) / 1000).toFixed(1)} s (sign in → create → Running → VNC → migrate → stop → delete)`);
});

async function openTab(p: Page, name: string): Promise<void> {
  await p.getByRole('navigation', { name: 'VM sections' }).getByRole('button', { name, exact: true }).click();
}

async function vncDrawn(p: Page): Promise<void> {
  await expect(p.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  await expect.poll(() => canvasColours(p), { timeout: 90_000, message: 'the VNC canvas shows more than one colour' }).toBeGreaterThan(1);
}

/** pid and environment of the process this bare cluster's kubelet started for `kv <command>` */
function podProcess(command: string): { pid: string; env: Map<string, string> } | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const env = new Map(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean)
        .map((kv): [string, string] => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (env.get('KV_BUNDLE')?.startsWith(`${process.env.KV_E2E_BARE_DATA_DIR}/`) && args.some((a) => a.endsWith('kv.mjs')) && args.includes(command)) return { pid, env };
    } catch { /* gone meanwhile */ }
  }
  return undefined;
}

test('the console is the kubevirt-console Deployment\'s Pod: `kv console` with in-cluster config only', async () => {
  const pods = await getObject<{ items: { spec: { serviceAccountName: string }; status: { phase: string; conditions?: { type: string; status: string }[] } }[] }>('/api/v1/namespaces/kubevirt/pods?labelSelector=kubevirt.io%3Dkubevirt-console');
  expect(pods?.items).toHaveLength(1);
  expect(pods!.items[0].spec.serviceAccountName).toBe('kubevirt-console'); // bound to no role: every step below is the user's RBAC
  expect(pods!.items[0].status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  const proc = podProcess('console');
  expect(proc, 'a kv console process started by the bare cluster\'s kubelet').toBeDefined();
  expect(proc!.env.get('KUBERNETES_SERVICE_HOST')).toBe('10.96.0.1');
  expect(proc!.env.get('KUBERNETES_SERVICE_PORT')).toBe('443');
  expect(proc!.env.has('KUBECONFIG')).toBe(false);
  // the ServiceAccount's files where a container has them, in the process's own mount namespace
  const inPod = (file: string) => execFileSync('nsenter', ['--mount', `--target=${proc!.pid}`, 'cat', file], { encoding: 'utf8' });
  expect(inPod('/var/run/secrets/kubernetes.io/serviceaccount/namespace')).toBe('kubevirt');
  expect(inPod('/var/run/secrets/kubernetes.io/serviceaccount/ca.crt')).toContain('BEGIN CERTIFICATE');
});

test('a wrong token is refused; a `kubectl create token` token signs in', async () => {
  await page.goto(`${consoleUrl()}/signin`);
  await page.getByLabel('Token').fill('not-a-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /./ })).toHaveText('The API server does not accept this token.');
  await page.getByLabel('Token').fill(process.env.KV_E2E_TOKEN!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await snap(page, 'cluster-signed-in');
});

test('create the demo VM from the form and see it Running on a node', async () => {
  await page.getByRole('link', { name: 'Virtual machines' }).click();
  await page.getByRole('link', { name: 'Create VM' }).click();
  await page.locator('input[name="name"]').fill(VM);
  await page.locator('input[name="image"]').fill('demo');
  await page.getByTestId('create-vm').click();
  await page.waitForURL(`**/vms/${NS}/${VM}`);
  await expect(page.locator('[data-status="Running"]').first()).toBeVisible({ timeout: 240_000 });
  expect(['node-1', 'node-2']).toContain((await getObject<VirtualMachineInstance>(vmiPath))?.status?.nodeName);
  await snap(page, 'cluster-running');
});

test('the VNC console shows the guest screen (console Pod → aggregated API → virt-api Pod → virt-handler)', async () => {
  await openTab(page, 'VNC console');
  await vncDrawn(page);
  await snap(page, 'cluster-vnc');
});

test('migrate to the other node from the console; the VNC console shows the guest again', async () => {
  const before = (await getObject<VirtualMachineInstance>(vmiPath))?.status?.nodeName;
  expect(before, 'the VMI reports its node').toBeTruthy();
  await page.locator('[data-action="migrate"]').click();
  await page.getByTestId('migrate-confirm').click();
  const bar = page.getByTestId('migration-progress').first();
  await expect(bar).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => bar.getAttribute('data-phase'), { timeout: 180_000, intervals: [500], message: 'the migration ends' }).toMatch(/^(Succeeded|Failed)$/);
  expect(await bar.getAttribute('data-phase'), `migration failed: ${await bar.innerText()}`).toBe('Succeeded');
  const after = (await getObject<VirtualMachineInstance>(vmiPath))?.status?.nodeName;
  expect(after).toBe(before === 'node-1' ? 'node-2' : 'node-1');
  await expect(bar).toContainText(`${before} → ${after}`);
  await vncDrawn(page);
  await snap(page, 'cluster-migrated');
});

test('stop, then delete', async () => {
  await openTab(page, 'Overview');
  await page.locator('[data-action="stop"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('[data-status="Stopped"]').first()).toBeVisible({ timeout: 120_000 });
  await snap(page, 'cluster-stopped');
  await page.locator('[data-action="delete"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`VM ${NS}/${VM} does not exist`)).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => getObject(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}`), { timeout: 30_000 }).toBeUndefined();
});

/**
 * The VM page's Size panel on a real `kv up` cluster: with the KubeVirt CR's vmRolloutStrategy
 * LiveUpdate, a demo VM started with 1 socket is raised to 2 vCPUs from the page — the page shows
 * 2 vCPUs and "Applied live" while the same VMI keeps running; 5 sockets (past the VMI's maxSockets
 * 4) shows "Needs a restart" with the VM's RestartRequired message and why; 600 sockets (past 512 vCPUs) are refused by
 * admission and the page shows the server's message. CPU only: the demo VM's 128Mi
 * is below memory hotplug's 1Gi minimum, and a memory change is a live migration (too slow for this
 * journey; e2e/memory-hotplug.test.ts covers it with kubectl). The VM is deleted and the CR's
 * rollout strategy restored at the end, pass or fail.
 */
import { expect, test, type Page } from '@playwright/test';
import type { KubeVirt, VirtualMachine, VirtualMachineInstance } from '../lib/kubevirt';
import { adminLoginUrl, getObject, snap } from './helpers';

test.describe.configure({ mode: 'serial' });

const VM = 'e2e-livesize';
const NS = 'default';
const CR = '/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/kubevirt';
const VM_PATH = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}`;
const VMI_PATH = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${VM}`;
let page: Page;
let strategyBefore: string | null = null;

/** A request through the console's API proxy as the signed-in admin; throws on an unexpected status. */
async function api(method: string, path: string, body?: object, contentType = 'application/json'): Promise<void> {
  const r = await page.evaluate(async ({ method, path, body, contentType }) => {
    const res = await fetch(`/api/kube${path}`, { method, headers: body ? { 'content-type': contentType } : undefined, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, text: await res.text() };
  }, { method, path, body, contentType });
  if (r.status >= 300 && !(method === 'DELETE' && r.status === 404)) throw new Error(`${method} ${path}: HTTP ${r.status} ${r.text}`);
}

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await page.goto(adminLoginUrl());
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  strategyBefore = (await getObject<KubeVirt>(CR))?.spec?.configuration?.vmRolloutStrategy ?? null;
  await api('PATCH', CR, { spec: { configuration: { vmRolloutStrategy: 'LiveUpdate' } } }, 'application/merge-patch+json');
});

// the specs share one cluster: leave it as found
test.afterAll(async () => {
  await api('DELETE', VM_PATH).catch(() => undefined);
  await api('PATCH', CR, { spec: { configuration: { vmRolloutStrategy: strategyBefore } } }, 'application/merge-patch+json').catch(() => undefined);
  await expect.poll(() => getObject(VM_PATH), { timeout: 60_000 }).toBeUndefined();
  await page.close();
});

const sizeState = () => page.getByTestId('size-state');

test('a 1-socket demo VM shows 1 vCPU and how far it may go live', async () => {
  await api('POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`, {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: VM, namespace: NS },
    spec: { runStrategy: 'Always', template: { metadata: { labels: { 'kubevirt.io/vm': VM } }, spec: {
      domain: { cpu: { sockets: 1 }, memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
      volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } } },
  });
  await page.goto(`${process.env.KV_E2E_CONSOLE_URL}/vms/${NS}/${VM}`);
  await expect(page.locator('[data-status="Running"]').first()).toBeVisible({ timeout: 180_000 });
  await expect(page.getByTestId('size-cpu')).toHaveText('1 vCPU (up to 4 live)');
  await expect(page.getByTestId('size-memory')).toHaveText('128 MiB (more needs a restart)');
  await expect(sizeState()).toHaveText('As the VM asks');
  await snap(page, 'size-before');
});

test('raise to 2 vCPUs: applied live, the same VMI', async () => {
  const before = (await getObject<VirtualMachineInstance>(VMI_PATH))!;
  await page.locator('input[name="sockets"]').fill('2');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(sizeState()).toHaveText('Applied live');
  await expect(sizeState()).toHaveAttribute('data-state', 'applied');
  await expect(page.getByTestId('size-cpu')).toHaveText('2 vCPUs (up to 4 live)');
  const after = (await getObject<VirtualMachineInstance>(VMI_PATH))!;
  expect(after.metadata.uid).toBe(before.metadata.uid);
  expect(after.status?.currentCPUTopology?.sockets).toBe(2);
  expect((await getObject<VirtualMachine>(VM_PATH))!.spec.template.spec.domain.cpu?.sockets).toBe(2);
  await snap(page, 'size-applied');
});

test('5 sockets is past maxSockets: needs a restart, with the reason', async () => {
  await page.locator('input[name="sockets"]').fill('5');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(sizeState()).toHaveAttribute('data-state', 'restart');
  await expect(sizeState()).toContainText('Needs a restart');
  await expect(page.getByTestId('size-detail')).toHaveText("CPU sockets updated in template spec to a value higher than what's available");
  await expect(page.getByTestId('size-why')).toHaveText('5 sockets asked, this guest goes up to 4 live');
  await expect(page.getByTestId('size-cpu')).toHaveText('2 vCPUs (up to 4 live)');
  await snap(page, 'size-restart');
});

test('a PATCH the server refuses shows its message; the VM keeps what it had', async () => {
  await page.locator('input[name="sockets"]').fill('600');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'sockets × cores × threads (600) must not exceed 512 vCPUs' }).first()).toBeVisible();
  expect((await getObject<VirtualMachine>(VM_PATH))!.spec.template.spec.domain.cpu?.sockets).toBe(5);
  await snap(page, 'size-refused');
});

test('a value the page cannot send is refused before the server', async () => {
  await page.locator('input[name="sockets"]').fill('2');
  await page.locator('input[name="memory"]').fill('lots');
  await expect(page.getByRole('alert').filter({ hasText: 'Memory must be a quantity such as 2Gi, got "lots"' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeDisabled();
});

/**
 * The console's instance-type catalogue on a real `kv up` cluster: create a VM by picking the u1
 * series, the nano size and the demo preference; the VM is posted naming spec.instancetype and
 * spec.preference (no CPU or memory in its template), runs with the type's CPU and memory, and its
 * page shows the instance type and preference. The form previews the VM as virt-api's
 * expand-vm-spec expands it (and its refusal of a conflicting domain.cpu), and offers the
 * namespace's own instance types beside the cluster ones. Screenshots in test-results/journey/.
 */
import { expect, test, type Page } from '@playwright/test';
import type { VirtualMachine, VirtualMachineInstance } from '../lib/kubevirt';
import { adminLoginUrl, getObject, snap } from './helpers';

test.describe.configure({ mode: 'serial' });

const VM = 'e2e-typed';
const NS = 'default';
const OWN_TYPE = 'e2e-team-type';
const OWN_TYPES = `/apis/instancetype.kubevirt.io/v1beta1/namespaces/${NS}/virtualmachineinstancetypes`;
let page: Page;

/** a call to the API server as the signed-in admin, through the console's proxy */
async function api(method: string, path: string, body?: object): Promise<void> {
  const r = await page.evaluate(async ({ method, path, body }) => {
    const res = await fetch(`/api/kube${path}`, { method, headers: body ? { 'content-type': 'application/json' } : undefined, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, text: await res.text() };
  }, { method, path, body });
  if (r.status >= 300 && !(method === 'DELETE' && r.status === 404)) throw new Error(`${method} ${path}: HTTP ${r.status} ${r.text}`);
}
/** the Details card (the Size card has its own vCPU and memory rows) */
const details = () => page.locator('section', { has: page.getByRole('heading', { name: 'Details', exact: true }) });

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await page.goto(adminLoginUrl());
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
});

test.afterAll(async () => {
  await api('DELETE', `${OWN_TYPES}/${OWN_TYPE}`).catch(() => undefined);
  await page.close();
});

test('pick u1.nano and the demo preference from the catalogue; the preview names them', async () => {
  await page.goto(`${process.env.KV_E2E_CONSOLE_URL}/vms/new`);
  await page.locator('input[name="name"]').fill(VM);
  await page.getByRole('radio', { name: 'Instance type', exact: true }).check();
  const catalogue = page.getByTestId('instancetype-catalogue');
  await expect(catalogue.getByTestId('series-u1')).toContainText('General purpose');
  await expect(catalogue.getByTestId('series-m1')).toBeVisible();
  await catalogue.getByTestId('series-u1').click();
  await catalogue.getByTestId('size-u1.nano').click();
  await expect(page.getByTestId('instancetype-choice')).toHaveText('u1.nano: 1 CPU, 512 MiB memory');
  await page.locator('select[name="preference"]').selectOption('demo');
  const preview = page.getByTestId('yaml-editor').first();
  await expect(preview).toContainText('kind: VirtualMachineClusterInstancetype');
  await expect(preview).toContainText('name: u1.nano');
  await expect(preview).toContainText('kind: VirtualMachineClusterPreference');
  await expect(preview).not.toContainText('guest:');
  await expect(preview).not.toContainText('cores:');
  await snap(page, 'catalogue');
});

test('the preview shows the VM as expand-vm-spec expands it: u1.small adds 2Gi and the CPU topology', async () => {
  const catalogue = page.getByTestId('instancetype-catalogue');
  await catalogue.getByTestId('size-u1.small').click();
  const expanded = page.getByTestId('expanded-preview');
  await expect(expanded).toHaveAttribute('data-state', 'ok');
  await expect(expanded).toContainText('guest: 2Gi');
  await expect(expanded).toContainText('cores: 1');
  await expect(expanded).toContainText('bus: virtio'); // the demo preference's disk bus
  await expect(expanded).not.toContainText('kind: VirtualMachineClusterInstancetype');
  // the draft itself still leaves them to the instance type
  await expect(page.getByTestId('yaml-editor').first()).not.toContainText('guest:');
  await snap(page, 'catalogue-expanded');
  await catalogue.getByTestId('size-u1.nano').click();
  await expect(expanded).toContainText('guest: 512Mi');
});

test("KubeVirt's refusal of a conflicting domain.cpu shows inline", async () => {
  await page.getByRole('tab', { name: 'YAML' }).click();
  const editor = page.getByTestId('yaml-editor').first().locator('.cm-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText([
    'apiVersion: kubevirt.io/v1', 'kind: VirtualMachine', `metadata: {name: ${VM}-yaml, namespace: ${NS}}`, 'spec:',
    '  instancetype: {name: u1.nano}', '  template:', '    spec:', '      domain: {cpu: {sockets: 2}, devices: {}}',
  ].join('\n'));
  await expect(page.getByTestId('expand-error')).toHaveText('VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type');
  await snap(page, 'catalogue-expand-error');
  await page.getByRole('tab', { name: 'Form' }).click();
  await expect(page.getByTestId('instancetype-choice')).toHaveText('u1.nano: 1 CPU, 512 MiB memory');
});

test("the namespace's own instance type is offered beside the cluster ones, labelled, and named by its kind", async () => {
  await api('POST', OWN_TYPES, { apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineInstancetype', metadata: { name: OWN_TYPE }, spec: { cpu: { guest: 1 }, memory: { guest: '768Mi' } } });
  const catalogue = page.getByTestId('instancetype-catalogue');
  await catalogue.getByTestId(`series-${OWN_TYPE}`).click();
  const card = catalogue.getByTestId(`size-ns-${OWN_TYPE}`);
  await expect(card).toHaveAttribute('data-scope', 'namespace');
  await expect(card.getByTestId('scope-label')).toHaveText(`namespace ${NS}`);
  await card.click();
  await expect(page.getByTestId('instancetype-choice')).toHaveText(`${OWN_TYPE} (VirtualMachineInstancetype in ${NS}): 1 CPU, 768 MiB memory`);
  await expect(page.getByTestId('yaml-editor').first()).toContainText('kind: VirtualMachineInstancetype');
  await expect(page.getByTestId('expanded-preview')).toContainText('guest: 768Mi');
  await snap(page, 'catalogue-namespaced');
  // back to the cluster's u1.nano for the VM the next steps run
  await catalogue.getByTestId('series-u1').click();
  await catalogue.getByTestId('size-u1.nano').click();
  await expect(page.getByTestId('instancetype-choice')).toHaveText('u1.nano: 1 CPU, 512 MiB memory');
});

test('create it and see it Running with the instance type shown', async () => {
  await page.getByTestId('create-vm').click();
  await page.waitForURL(`**/vms/${NS}/${VM}`);
  await expect(page.locator('[data-status="Running"]').first()).toBeVisible({ timeout: 180_000 });
  await expect(page.getByTestId('vm-instancetype')).toHaveText('u1.nano');
  await expect(page.getByTestId('vm-preference')).toHaveText('demo');
  // CPU and memory of the running VMI (the template has none)
  await expect(details().locator('dt', { hasText: 'Memory' }).locator('xpath=following-sibling::dd[1]')).toHaveText('512 MiB');
  await expect(details().locator('dt', { hasText: 'CPU' }).locator('xpath=following-sibling::dd[1]')).toHaveText('1 vCPU');
  await snap(page, 'typed-running');
  const vm = (await getObject<VirtualMachine>(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}`))!;
  expect(vm.spec.instancetype).toMatchObject({ name: 'u1.nano', kind: 'VirtualMachineClusterInstancetype' });
  expect(vm.spec.instancetype!.revisionName).toBeTruthy();
  expect(vm.spec.template.spec.domain.memory).toBeUndefined();
  const vmi = (await getObject<VirtualMachineInstance>(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${VM}`))!;
  expect(vmi.spec.domain.memory!.guest).toBe('512Mi');
  expect(vmi.spec.domain.cpu).toMatchObject({ sockets: 1, cores: 1, threads: 1 });
});

test('stopped, it still shows the size of its instance type', async () => {
  await page.locator('[data-action="stop"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('[data-status="Stopped"]').first()).toBeVisible({ timeout: 120_000 });
  await expect(details().locator('dt', { hasText: 'Memory' }).locator('xpath=following-sibling::dd[1]')).toHaveText('512 MiB');
  await expect(page.getByTestId('vm-instancetype')).toHaveText('u1.nano');
  await snap(page, 'typed-stopped');
});

// the specs share one cluster: leave it as found (the visual review expects an empty VM list)
test('delete it', async () => {
  await page.locator('[data-action="delete"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => getObject(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}`), { timeout: 30_000 }).toBeUndefined();
});

/**
 * The console's instance-type catalogue on a real `kv up` cluster: create a VM by picking the u1
 * series, the nano size and the demo preference; the VM is posted naming spec.instancetype and
 * spec.preference (no CPU or memory in its template), runs with the type's CPU and memory, and its
 * page shows the instance type and preference. Screenshots in test-results/journey/.
 */
import { expect, test, type Page } from '@playwright/test';
import type { VirtualMachine, VirtualMachineInstance } from '../lib/kubevirt';
import { adminLoginUrl, getObject, snap } from './helpers';

test.describe.configure({ mode: 'serial' });

const VM = 'e2e-typed';
const NS = 'default';
let page: Page;
/** the Details card (the Size card has its own vCPU and memory rows) */
const details = () => page.locator('section', { has: page.getByRole('heading', { name: 'Details', exact: true }) });

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await page.goto(adminLoginUrl());
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
});

test.afterAll(async () => {
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

/**
 * The console journey on a real `kv up` cluster with QEMU guests: sign in → create a VM from the
 * form → Running → VNC shows the guest → serial console answers → migrate with one click and watch
 * the progress bar (the VNC console open all along is connected again afterwards) → a fresh
 * VNC console on the new node → a view-only user looks but cannot act → stop → delete.
 * Screenshots of each step in test-results/journey/.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { VirtualMachineInstance } from '../lib/kubevirt';
import { canvasColours, getObject, signInAsViewer, snap, adminLoginUrl } from './helpers';

test.describe.configure({ mode: 'serial' });

const VM = 'e2e-demo';
const NS = 'default';
const vmiPath = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${VM}`;
let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page.close();
});

async function openTab(p: Page, name: string): Promise<void> {
  await p.getByRole('navigation', { name: 'VM sections' }).getByRole('button', { name, exact: true }).click();
}

test('sign in with the link kv up printed', async () => {
  await page.goto(adminLoginUrl());
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-state', 'live');
  await snap(page, 'signed-in');
});

test('create a VM from the form and see it Running', async () => {
  await page.getByRole('link', { name: 'Virtual machines' }).click();
  await page.getByRole('link', { name: 'Create VM' }).click();
  await page.locator('input[name="name"]').fill(VM);
  await page.locator('input[name="image"]').fill('demo');
  // a persistent data disk on the shared class (so the migration below copies no disk data)
  await page.locator('select[name="dataDisk"]').selectOption('blank');
  await page.locator('input[name="dataDiskSize"]').fill('64Mi');
  await page.locator('select[name="dataDiskClass"]').selectOption('shared');
  await expect(page.getByTestId('yaml-editor').first()).toContainText(`name: ${VM}`);
  await expect(page.getByTestId('yaml-editor').first()).toContainText(`name: ${VM}-data`);
  await snap(page, 'create-form');
  await page.getByTestId('create-vm').click();
  await page.waitForURL(`**/vms/${NS}/${VM}`);
  await expect(page.locator('[data-status="Running"]').first()).toBeVisible({ timeout: 180_000 });
  await snap(page, 'running');
});

test('the Guest card shows what the guest agent reports', async () => {
  const card = page.getByTestId('guest-facts');
  await expect(card).toContainText('kubevirt-ts demo', { timeout: 60_000 });
  await expect(card).toContainText(/Kernel\s*6\.1\./);
  await expect(card).toContainText('Time zone');
  await expect(card.getByRole('heading', { name: 'Filesystems' })).toBeVisible();
});

test('the Disks tab shows the data disk with its claim, class, size and access', async () => {
  await openTab(page, 'Disks & NICs');
  const row = page.getByTestId('disks-table').locator('tr', { hasText: `DataVolume ${VM}-data` });
  await expect(row).toContainText('shared');
  await expect(row).toContainText('64Mi');
  await expect(row).toContainText('RWX');
  await snap(page, 'disks');
});

test("the Storage page lists the data disk's claim, bound and used by the VM", async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Storage', exact: true }).click();
  const row = page.locator(`[data-claim="${NS}/${VM}-data"]`);
  await expect(row).toContainText('Bound', { timeout: 30_000 });
  await expect(row).toContainText('shared');
  await expect(row).toContainText('RWX');
  await expect(page.getByTestId('classes-table')).toContainText('default');
  await snap(page, 'storage');
  await row.getByRole('link', { name: VM }).click();
  await page.waitForURL(`**/vms/${NS}/${VM}?tab=devices`);
});

test('the VNC console shows the guest screen', async () => {
  await openTab(page, 'VNC console');
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  await expect.poll(() => canvasColours(page), { timeout: 60_000, message: 'the VNC canvas shows more than one colour' }).toBeGreaterThan(1);
  await snap(page, 'vnc');
});

test('type into the serial console and read the answer', async () => {
  await openTab(page, 'Serial console');
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  const term = page.getByTestId('serial-terminal');
  await term.click();
  await page.keyboard.press('Enter');
  await expect(term).toContainText(/login:|#/, { timeout: 90_000 });
  if (!/#\s*$/.test(await term.innerText())) {
    await page.keyboard.type('root\n');
    await expect(term).toContainText('#', { timeout: 30_000 });
  }
  await page.keyboard.type('echo kv-$((6*7))\n');
  await expect(term).toContainText('kv-42', { timeout: 30_000 });
  await snap(page, 'serial');
});

test('VNC toolbar: send keys, paste as typing, screenshot — read the effects on the serial console', async ({ browser }) => {
  const serial = await (await browser.newContext()).newPage();
  await serial.goto(adminLoginUrl());
  await serial.waitForURL(`${process.env.KV_E2E_CONSOLE_URL}/`);
  await serial.goto(`${process.env.KV_E2E_CONSOLE_URL}/vms/${NS}/${VM}?tab=serial`);
  await expect(serial.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  const term = serial.getByTestId('serial-terminal');
  await openTab(page, 'VNC console');
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });

  // Send keys: Alt+SysRq+S reaches the guest's kernel through the VNC keyboard; the kernel answers on its console (ttyS0).
  await page.getByLabel('Send keys').selectOption({ label: 'Alt+SysRq+S (sync)' });
  await expect(term).toContainText(/sysrq: (Emergency Sync|This sysrq operation is disabled)/i, { timeout: 30_000 });

  // Paste as typing (US layout) into the VGA console: log in on tty1, then a command whose answer goes to the serial line.
  const paste = async (text: string) => {
    await page.getByRole('button', { name: 'Paste as typing' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Text to type').fill(text);
    await dialog.getByLabel('Guest keyboard layout').selectOption('us');
    await dialog.getByRole('button', { name: /^Type \d+ keys$/ }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
  };
  await paste('root\n');
  await expect(async () => { // the tty1 login may still be starting a shell: type the command again until it answers
    await paste('echo pasted-$((2+3)) >/dev/ttyS0\n');
    await expect(term).toContainText('pasted-5', { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await snap(serial, 'pasted-on-serial');
  await serial.context().close();

  // Screenshot: a PNG of the guest screen is downloaded.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Screenshot' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^${VM}-.*\\.png$`));
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 8).toString('hex'), 'the download is a PNG').toBe('89504e470d0a1a0a');
  expect(bytes.length).toBeGreaterThan(1000);
});

test('migrate with one click and watch the progress bar; the open VNC console follows', async () => {
  const before = (await getObject<VirtualMachineInstance>(vmiPath))?.status?.nodeName;
  expect(before, 'the VMI reports its node').toBeTruthy();
  await openTab(page, 'VNC console');
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });

  await page.locator('[data-action="migrate"]').click();
  await page.getByTestId('migrate-confirm').click();
  const bar = page.getByTestId('migration-progress').first();
  await expect(bar).toBeVisible({ timeout: 30_000 });
  await snap(page, 'migrating');
  const seen: number[] = [];
  await expect.poll(async () => {
    seen.push(Number(await bar.getByRole('progressbar').getAttribute('aria-valuenow')));
    return bar.getAttribute('data-phase');
  }, { timeout: 180_000, intervals: [250], message: 'the migration ends' }).toMatch(/^(Succeeded|Failed)$/);
  expect(await bar.getAttribute('data-phase'), `migration failed: ${await bar.innerText()}`).toBe('Succeeded');
  expect(seen.some((v) => v > 0 && v < 100), `the bar showed progress before the end (values: ${[...new Set(seen)].join(', ')})`).toBe(true);
  await expect(bar.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByText('Last migration')).toBeVisible();
  await expect(bar).toContainText('downtime');
  const after = (await getObject<VirtualMachineInstance>(vmiPath))?.status?.nodeName;
  expect(after).toBeTruthy();
  expect(after).not.toBe(before);
  await expect(bar).toContainText(`${before} → ${after}`);

  // The console that was open during the move is connected again (followed or reconnected) and shows the guest.
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  await expect.poll(() => canvasColours(page), { timeout: 60_000 }).toBeGreaterThan(1);
  await snap(page, 'migrated');
});

test('a fresh VNC console is live on the new node', async () => {
  await openTab(page, 'Overview');
  await expect(page.getByTestId('vnc-screen')).toHaveCount(0);
  await openTab(page, 'VNC console');
  await expect(page.getByTestId('console-state')).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
  await expect.poll(() => canvasColours(page), { timeout: 60_000 }).toBeGreaterThan(1);
  await snap(page, 'vnc-after-migration');
});

test('a view-only sign-in can look but not act', async ({ browser }) => {
  const viewer = await signInAsViewer(browser);
  await viewer.goto(`${process.env.KV_E2E_CONSOLE_URL}/vms/${NS}/${VM}`);
  await expect(viewer.locator('[data-status="Running"]').first()).toBeVisible();
  await expect(viewer.getByText('View only: actions are hidden.')).toBeVisible();
  await expect(viewer.locator('[data-action]')).toHaveCount(0);
  await openTab(viewer, 'VNC console');
  await expect(viewer.getByTestId('console-state')).toHaveAttribute('data-state', 'forbidden', { timeout: 30_000 });
  await expect(viewer.getByText('Your sign-in may not open this console')).toBeVisible();
  await snap(viewer, 'viewer-console-refused');

  const refused = await viewer.evaluate(async (p) => {
    const res = await fetch(`/api/kube/apis/subresources.kubevirt.io/v1/namespaces/${p.ns}/virtualmachines/${p.vm}/stop`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: res.status, body: await res.json() };
  }, { ns: NS, vm: VM });
  expect(refused.status).toBe(403);
  expect(refused.body.reason).toBe('Forbidden');

  await viewer.goto(`${process.env.KV_E2E_CONSOLE_URL}/vms/new`);
  await expect(viewer.getByTestId('view-only-notice')).toBeVisible();
  await viewer.locator('input[name="name"]').fill('viewer-made');
  await viewer.getByTestId('create-vm').click();
  await expect(viewer.getByRole('alert').filter({ hasText: /forbidden/i })).toBeVisible();
  await snap(viewer, 'viewer-create-refused');
  expect(await getObject(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/viewer-made`)).toBeUndefined();
  expect((await getObject<VirtualMachineInstance>(vmiPath))?.status?.phase).toBe('Running');
  await viewer.context().close();
});

test('stop, then delete', async () => {
  await openTab(page, 'Overview');
  await page.locator('[data-action="stop"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('[data-status="Stopped"]').first()).toBeVisible({ timeout: 120_000 });
  await snap(page, 'stopped');
  await page.locator('[data-action="delete"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`VM ${NS}/${VM} does not exist`)).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => getObject(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}`), { timeout: 30_000 }).toBeUndefined();
  await snap(page, 'deleted');
});

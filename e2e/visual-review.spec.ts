/**
 * Every page as a user sees it, in light and dark, at laptop sizes (1366×768, 1280×800): saves
 * screenshots to test-results/visual/ for a person to look at, and checks what a machine can — the
 * page does not scroll sideways, key elements are visible, visible text meets WCAG AA contrast.
 * Empty list → many VMs → VM page tabs → create (form, instance-type catalogue, YAML with an admission error) → nodes →
 * migrations → sign-in → API server unreachable → view-only refusal.
 */
import { expect, test, type Page } from '@playwright/test';
import { horizontalOverflow, lowContrastText, signInAsViewer, adminLoginUrl } from './helpers';

test.describe.configure({ mode: 'serial' });

const NS = 'default';
const MANY = 24;
const SCHEMES = ['light', 'dark'] as const;
const VIEWPORTS = [{ width: 1280, height: 800 }, { width: 1366, height: 768 }];
const url = (path: string) => `${process.env.KV_E2E_CONSOLE_URL}${path}`;
let page: Page;

/** Waits for running CSS transitions (a button turning from disabled to enabled) so colours are measured at rest. */
async function settled(p: Page): Promise<void> {
  await p.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
}

/** Looks at the current page in both schemes and both sizes: screenshots, overflow, contrast. */
async function review(p: Page, name: string, ready: (p: Page) => Promise<void>, open?: () => Promise<void>): Promise<void> {
  const problems: string[] = [];
  for (const colorScheme of SCHEMES) {
    await p.emulateMedia({ colorScheme });
    await p.reload();
    await ready(p);
    if (open) await open();
    for (const vp of VIEWPORTS) {
      await p.setViewportSize(vp);
      await settled(p);
      const overflow = await horizontalOverflow(p);
      if (overflow > 0) problems.push(`${colorScheme} ${vp.width}px: scrolls ${overflow}px sideways`);
      for (const t of await lowContrastText(p)) problems.push(`${colorScheme} ${vp.width}px: contrast ${t}`);
      await p.screenshot({ path: `test-results/visual/${name}-${colorScheme}-${vp.width}.png` });
    }
  }
  expect.soft([...new Set(problems)], `${name}: readability problems`).toEqual([]);
}

async function createHaltedVMs(p: Page, names: string[]): Promise<void> {
  await p.evaluate(async ({ ns, names }) => {
    for (const name of names) {
      const vm = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: ns },
        spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, memory: { guest: '128Mi' } } } } } };
      const r = await fetch(`/api/kube/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(vm) });
      if (r.status !== 201) throw new Error(`create ${name}: HTTP ${r.status} ${await r.text()}`);
    }
  }, { ns: NS, names });
}

async function deleteVMs(p: Page, names: string[]): Promise<void> {
  await p.evaluate(async ({ ns, names }) => {
    await Promise.all(names.map((n) => fetch(`/api/kube/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines/${n}`, { method: 'DELETE' })));
  }, { ns: NS, names });
}

const heading = (name: string | RegExp) => async (p: Page) => { await expect(p.getByRole('heading', { name }).first()).toBeVisible(); };
const names = Array.from({ length: MANY }, (_, i) => `visual-${String(i).padStart(2, '0')}`);

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await page.goto(adminLoginUrl());
  await page.waitForURL(url('/'));
});

test.afterAll(async () => {
  await deleteVMs(page, names);
  await page.close();
});

test('overview and an empty VM list say what to do', async () => {
  await review(page, 'overview', heading('Overview'));
  await page.goto(url('/vms'));
  await review(page, 'vms-empty', async (p) => { await expect(p.getByText('No virtual machines yet')).toBeVisible(); });
  await expect(page.getByRole('link', { name: /create/i }).first()).toBeVisible();
});

test('a VM list with a few and with many VMs', async () => {
  await createHaltedVMs(page, names.slice(0, 3));
  await page.goto(url('/vms'));
  await review(page, 'vms-few', async (p) => { await expect(p.getByText(names[2])).toBeVisible(); });
  await createHaltedVMs(page, names.slice(3));
  await review(page, 'vms-many', async (p) => { await expect(p.getByText(names[10])).toBeVisible(); });
});

test('every tab of a VM page', async () => {
  await page.goto(url(`/vms/${NS}/${names[0]}`));
  for (const tab of ['overview', 'console', 'serial', 'yaml', 'events', 'devices', 'migrations', 'metrics']) {
    await page.goto(url(`/vms/${NS}/${names[0]}?tab=${tab}`));
    await review(page, `vm-${tab}`, async (p) => { await expect(p.locator('[data-status]').first()).toBeVisible(); });
  }
});

test('create: the form, and YAML mode with an admission error at its field', async () => {
  await page.goto(url('/vms/new'));
  await review(page, 'create-form', async (p) => { await expect(p.locator('input[name="name"]')).toBeVisible(); });
  await review(page, 'create-instancetype', async (p) => { await expect(p.locator('input[name="name"]')).toBeVisible(); }, async () => {
    await page.getByRole('radio', { name: 'Instance type', exact: true }).check();
    await page.getByTestId('size-u1.small').click();
    await expect(page.getByTestId('instancetype-choice')).toHaveText('u1.small: 1 CPU, 2 GiB memory');
  });
  await review(page, 'create-yaml-error', async (p) => { await expect(p.locator('input[name="name"]')).toBeVisible(); }, async () => {
    await page.getByRole('tab', { name: 'YAML' }).click();
    const editor = page.getByTestId('yaml-editor').locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(`apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: visual-bad\nspec:\n  runStrategy: Sometimes\n  template:\n    spec:\n      domain:\n        devices: {}\n`);
    await page.getByTestId('create-vm').click();
    await expect(page.getByRole('alert').first()).toBeVisible();
  });
});

test('nodes and migrations', async () => {
  await page.goto(url('/nodes'));
  await review(page, 'nodes', heading('Nodes'));
  await expect(page.getByRole('button', { name: /cordon/i }).first()).toBeVisible();
  await page.goto(url('/migrations'));
  await review(page, 'migrations', heading('Migrations'));
});

test('storage and VM groups', async () => {
  await page.goto(url('/storage'));
  await review(page, 'storage', heading('Storage'));
  await expect(page.getByTestId('classes-table')).toContainText('default');
  await page.goto(url('/groups'));
  await review(page, 'groups', heading('VM groups'));
});

test('sign-in page, and a page when the API server cannot be reached', async ({ browser }) => {
  const anon = await (await browser.newContext()).newPage();
  await anon.goto(url('/signin'));
  await review(anon, 'signin', async (p) => { await expect(p.getByRole('button', { name: /sign in/i })).toBeVisible(); });
  await anon.context().close();

  // The API server is down: every list the page subscribes to comes back as the console's watch error.
  const down = await (await browser.newContext()).newPage();
  await down.routeWebSocket('**/ws/watch', (ws) => ws.onMessage((m) => {
    const req = JSON.parse(String(m)) as { op: string; id: string };
    if (req.op === 'subscribe') ws.send(JSON.stringify([{ id: req.id, kind: 'error', code: 503, message: 'connect ECONNREFUSED 127.0.0.1:6443' }]));
  }));
  await down.goto(adminLoginUrl());
  await down.waitForURL(url('/'));
  await down.goto(url('/vms'));
  // Now and then the mocked socket misses the page's first subscribe (a race in the mock, not the page): load again.
  await review(down, 'api-down', (p) => expect(async () => {
    if (await p.getByText('Loading…').isVisible()) await p.reload();
    await expect(p.getByText(/cannot reach the Kubernetes API server/)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 }));
  await down.context().close();
});

test('a view-only user is told why an action is refused', async ({ browser }) => {
  const viewer = await signInAsViewer(browser);
  await viewer.goto(url('/vms/new'));
  await review(viewer, 'viewer-create-refused', async (p) => { await expect(p.getByTestId('view-only-notice')).toBeVisible(); }, async () => {
    await viewer.locator('input[name="name"]').fill('viewer-visual');
    await viewer.getByTestId('create-vm').click();
    await expect(viewer.getByRole('alert').filter({ hasText: /forbidden/i })).toBeVisible();
  });
  await viewer.context().close();
});

test('keyboard: Ctrl+K opens the palette, Enter goes to the page, focus is visible', async () => {
  await page.goto(url('/'));
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('combobox', { name: 'Command palette' });
  await expect(palette).toBeFocused();
  await page.keyboard.type('nodes');
  await page.keyboard.press('Enter');
  await page.waitForURL(url('/nodes'));
  await expect(page.getByRole('heading', { name: 'Nodes' })).toBeVisible();
  await expect(palette).toBeHidden();

  await expect.poll(async () => { // Tab until a control has focus (the first stops may be outside the page's controls)
    await page.keyboard.press('Tab');
    return page.evaluate(() => document.activeElement?.tagName);
  }, { timeout: 10_000 }).toMatch(/^(A|BUTTON|INPUT|SELECT)$/);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline, 'the focused control shows an outline').not.toBe('none');
});

/**
 * The console asks what the user may do per namespace: a ServiceAccount with `edit` and
 * `kubevirt.io:migrate` bound by RoleBindings in namespace A only (plus `view` cluster-wide, to see
 * B at all) signs in on /signin with a `kubectl create token` token and sees Stop and Migrate on A's
 * VM, none on B's, and may create VMs only in A (B's refusal still shows the API server's 403). The
 * viewer sees no action anywhere; the admin sees them on both.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminLoginUrl, getObject, signInAsViewer } from './helpers';

const A = 'rights-a';
const B = 'rights-b';
const SA = 'a-editor';
const consoleUrl = () => process.env.KV_E2E_CONSOLE_URL!;

function kubectl(args: string[], input?: string): string {
  return execFileSync('kubectl', args, { env: { ...process.env, KUBECONFIG: process.env.KV_E2E_KUBECONFIG! }, input, encoding: 'utf8' });
}

const haltedVM = (ns: string) => JSON.stringify({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm', namespace: ns },
  spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, memory: { guest: '128Mi' } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } } },
});

let editorToken = '';

test.beforeAll(() => {
  for (const ns of [A, B]) {
    kubectl(['create', 'namespace', ns]);
    kubectl(['apply', '-f', '-'], haltedVM(ns));
  }
  kubectl(['create', 'serviceaccount', SA, '-n', A]);
  kubectl(['create', 'clusterrolebinding', 'rights-a-view', '--clusterrole=view', `--serviceaccount=${A}:${SA}`]);
  kubectl(['create', 'rolebinding', 'a-edit', '-n', A, '--clusterrole=edit', `--serviceaccount=${A}:${SA}`]);
  kubectl(['create', 'rolebinding', 'a-migrate', '-n', A, '--clusterrole=kubevirt.io:migrate', `--serviceaccount=${A}:${SA}`]);
  editorToken = kubectl(['create', 'token', SA, '-n', A, '--duration=1h']).trim();
});

test.afterAll(() => {
  kubectl(['delete', 'clusterrolebinding', 'rights-a-view', '--ignore-not-found']);
  kubectl(['delete', 'namespace', A, B, '--ignore-not-found', '--wait=false']);
});

async function signInOnPage(browser: Browser, token: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${consoleUrl()}/signin`);
  await page.locator('#token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${consoleUrl()}/`);
  return page;
}

/** The action buttons on a VM's page once its namespace's rights are known (Delete is there for any writer). */
async function actionsOn(page: Page, ns: string): Promise<string[]> {
  await page.goto(`${consoleUrl()}/vms/${ns}/vm`);
  await expect(page.locator('[data-action]').or(page.getByText('View only: actions are hidden.')).first()).toBeVisible();
  return page.locator('[data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action') ?? ''));
}

test('edit bound in one namespace: actions there, none in the other', async ({ browser }) => {
  const page = await signInOnPage(browser, editorToken);
  await expect(page.getByText('limited rights')).toBeVisible();

  const inA = await actionsOn(page, A);
  expect(inA).toEqual(expect.arrayContaining(['start', 'stop', 'migrate', 'delete']));
  // the halted VM's state still refuses Stop: shown, disabled, with virt-api's reason
  await expect(page.locator('[data-action="stop"]')).toBeDisabled();
  await expect(page.locator('[data-action="start"]')).toBeEnabled();

  expect(await actionsOn(page, B)).toEqual([]);
  await expect(page.getByText('View only: actions are hidden.')).toBeVisible();

  // the list: Create VM is offered (A allows it); the form picks A, and refuses B before asking
  await page.goto(`${consoleUrl()}/vms`);
  await page.getByRole('link', { name: 'Create VM' }).click();
  await expect(page.locator('input[name="namespace"]')).toHaveValue(A);
  await expect(page.getByTestId('view-only-notice')).toHaveCount(0);
  await page.locator('input[name="namespace"]').fill(B);
  await expect(page.getByTestId('view-only-notice')).toContainText(`may not create VMs in namespace ${B}`);
  await expect(page.getByTestId('view-only-notice')).toContainText(`You may create them in: ${A}`);
  // asked anyway, the API server's 403 shows
  await page.locator('input[name="name"]').fill('not-here');
  await page.getByTestId('create-vm').click();
  await expect(page.getByRole('alert').filter({ hasText: /forbidden/i })).toBeVisible();
  expect(await getObject(`/apis/kubevirt.io/v1/namespaces/${B}/virtualmachines/not-here`)).toBeUndefined();
  await page.context().close();
});

test('the viewer sees no action in either namespace', async ({ browser }) => {
  const page = await signInAsViewer(browser);
  expect(await actionsOn(page, A)).toEqual([]);
  expect(await actionsOn(page, B)).toEqual([]);
  await page.goto(`${consoleUrl()}/vms`);
  await expect(page.getByText('View only: you cannot create VMs.')).toBeVisible();
  await page.context().close();
});

test('the admin sees the actions in both namespaces', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(adminLoginUrl());
  await page.waitForURL(`${consoleUrl()}/`);
  await expect(page.getByText('limited rights')).toHaveCount(0);
  for (const ns of [A, B]) expect(await actionsOn(page, ns)).toEqual(expect.arrayContaining(['start', 'stop', 'migrate', 'delete']));
  await page.context().close();
});

/**
 * The Settings page edits the cluster's KubeVirt CR: it shows the operator's status, refuses a bad
 * value before sending it (the server's rule, the server's words), and a saved change is in the CR
 * at once (virt-controller and virt-api read it live).
 */
import { expect, test } from '@playwright/test';
import type { KubeVirt } from '../lib/kubevirt';
import { getObject, snap, adminLoginUrl } from './helpers';

const CR = '/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/kubevirt';

test('Settings shows the KubeVirt CR, refuses a bad limit and saves a good one', async ({ page }) => {
  await page.goto(adminLoginUrl());
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByTestId('kubevirt-status')).toContainText('Phase Deployed');
  await expect(page.getByTestId('kubevirt-status')).toContainText('Available=True');
  const limit = page.getByLabel('Parallel migrations per cluster');
  await limit.fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'parallelMigrationsPerCluster must be a positive integer, got 0' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await limit.fill('7');
  await page.getByLabel('Allow post-copy').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('KubeVirt configuration saved')).toBeVisible();
  await expect.poll(async () => (await getObject<KubeVirt>(CR))!.spec!.configuration!.migrations).toMatchObject({ parallelMigrationsPerCluster: 7, allowPostCopy: true });
  await snap(page, 'settings');
});

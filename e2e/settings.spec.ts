/**
 * The Settings page edits the cluster's KubeVirt CR: it shows the operator's status, refuses a bad
 * value (a migration limit, the memory overhead ratio) before sending it (the server's rule, the server's words), and a saved change is in the CR
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
  // the launcher Pods' memory overhead ratio: admission's rule (a float ≥ 1) and words, before sending
  const ratio = page.getByLabel('Guest memory overhead ratio');
  await ratio.fill('0.5');
  await expect(page.getByRole('alert').filter({ hasText: 'ratio provided, 0.5, cannot be smaller than 1.0' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await ratio.fill('1.5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('KubeVirt configuration saved')).toBeVisible();
  await expect.poll(async () => (await getObject<KubeVirt>(CR))!.spec!.configuration!.migrations).toMatchObject({ parallelMigrationsPerCluster: 7, allowPostCopy: true });
  await expect.poll(async () => (await getObject<KubeVirt>(CR))!.spec!.configuration!.additionalGuestMemoryOverheadRatio).toBe('1.5');
  await snap(page, 'settings');
});

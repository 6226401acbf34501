/** Small helpers for the e2e journey: API reads with the admin token, pixel checks, step screenshots. */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { apiGet, readApiAccess } from '../server/up/readiness';

export function adminAccess() {
  return readApiAccess(process.env.KV_E2E_KUBECONFIG!)!;
}

export async function getObject(path: string): Promise<any> {
  const r = await apiGet(adminAccess(), path, 5000);
  return r.status === 200 ? r.body : undefined;
}

/** The viewer's token (view-only) from the cluster's tokens file. */
export function viewerToken(): string {
  const file = JSON.parse(readFileSync(`${process.env.KV_E2E_DATA_DIR}/apiserver/tokens.json`, 'utf8'));
  return file.tokens.find((t: { username: string }) => t.username === 'viewer').token;
}

/** Distinct colours in the VNC canvas (1 = blank screen). */
export async function canvasColours(page: Page): Promise<number> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid="vnc-screen"] canvas') as HTMLCanvasElement | null;
    if (!c || !c.width || !c.height) return 0;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length && seen.size < 16; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  });
}

let step = 0;
export async function snap(page: Page, name: string): Promise<void> {
  step += 1;
  await page.screenshot({ path: `test-results/journey/${String(step).padStart(2, '0')}-${name}.png`, fullPage: false });
}

/** A page in a fresh browser context signed in with the view-only token (close its context when done). */
export async function signInAsViewer(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${process.env.KV_E2E_CONSOLE_URL}/login?token=${encodeURIComponent(viewerToken())}`);
  await page.waitForURL(`${process.env.KV_E2E_CONSOLE_URL}/`);
  return page;
}

/** Small helpers for the e2e journey: API reads with the admin token, pixel checks, step screenshots. */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { mintLoginLink } from '../server/console/login-link';
import { apiGet, readApiAccess } from '../server/up/readiness';

export function adminAccess() {
  return readApiAccess(process.env.KV_E2E_KUBECONFIG!)!;
}

/** The object at `path` as `T` (the JSON is not checked), or undefined when the GET is not 200. */
export async function getObject<T = unknown>(path: string): Promise<T | undefined> {
  const r = await apiGet<T>(adminAccess(), path, 5000);
  return r.status === 200 ? r.body : undefined;
}

/** A fresh one-time sign-in link as the admin (what `kv console login-link` prints; `kv up`'s own link works once). */
export function adminLoginUrl(): string {
  return mintLoginLink(process.env.KV_E2E_DATA_DIR!, process.env.KV_E2E_CONSOLE_URL!, adminAccess().token).url;
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
  const base = process.env.KV_E2E_CONSOLE_URL!;
  const res = await page.request.post(`${base}/api/session`, { data: { token: viewerToken() }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`signing in as the viewer: HTTP ${res.status()}`);
  await page.goto(`${base}/`);
  return page;
}

/** Visible text on the page whose contrast with its background is below WCAG AA (4.5:1, 3:1 for large text). */
export async function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): number[] => { // any CSS colour (lab, oklch, …) → sRGB 0-255 and alpha 0-1
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return a ? [r * 255 / a, g * 255 / a, b * 255 / a, a / 255] : [0, 0, 0, 0];
    };
    const lum = ([r, g, b]: number[]) => {
      const f = (c: number) => { const v = c / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      let out = document.documentElement.classList.contains('dark') ? [2, 6, 23] : [255, 255, 255];
      for (const c of layers.reverse()) out = out.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
      return out;
    };
    const bad: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim();
      if (!el || !text || el.closest('[data-testid="vnc-screen"],[data-testid="serial-terminal"],.cm-editor,[aria-hidden="true"]')) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!box.width || !box.height || style.visibility === 'hidden' || Number(style.opacity) < 0.99 || el.closest('[disabled],[aria-disabled="true"]')) continue;
      const fg = rgba(style.color);
      const bg = background(el);
      const mixed = fg.slice(0, 3).map((v, i) => v * fg[3] + bg[i] * (1 - fg[3]));
      const [a, b] = [lum(mixed), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) bad.push(`${ratio.toFixed(2)} "${text.slice(0, 40)}" (${style.color} on rgb(${bg.map(Math.round).join(',')}))`);
    }
    return [...new Set(bad)];
  });
}

/** How many CSS pixels the page scrolls sideways (0 = fits the window). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

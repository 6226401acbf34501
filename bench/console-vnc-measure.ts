/**
 * In-browser measurements for console-list-bench: a real status change reaching the VM list (start
 * request → the row's status badge changes, so it includes virt-controller's reaction), and the VNC
 * console's first frame (click on the "VNC console" tab → the first canvas paint showing more than
 * one colour). Both on the page's clock (performance.now()).
 */
import type { Page } from '@playwright/test';

/** Installs a watcher for `name`'s row leaving `from`; returns a function that resolves with the page time it did. */
export async function watchRowStatusChange(page: Page, name: string, from: string): Promise<() => Promise<number>> {
  await page.evaluate(({ n, f }) => {
    (window as unknown as { __statusSeen: Promise<number> }).__statusSeen = new Promise<number>((resolve) => {
      const changed = () => { const s = document.querySelector(`[data-vm="${n}"]`)?.getAttribute('data-status'); return !!s && s !== f; };
      const mo = new MutationObserver(() => { if (changed()) { mo.disconnect(); resolve(performance.now()); } });
      mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    });
  }, { n: name, f: from });
  return () => page.evaluate(() => (window as unknown as { __statusSeen: Promise<number> }).__statusSeen);
}

/**
 * Page script recording, for each /ws/vnc/ socket, when it was created, opened and got its first
 * message (page clock): the first-frame figure's breakdown. Install with page.addInitScript.
 */
export const RECORD_VNC_SOCKETS = `(() => {
  const Native = window.WebSocket;
  window.__vncSockets = [];
  // a plain function returning the native socket: noVNC checks the socket's own prototype methods
  function Recording(url, protocols) {
    const ws = new Native(url, protocols);
    if (String(url).includes('/ws/vnc/')) {
      const rec = { created: performance.now() };
      window.__vncSockets.push(rec);
      ws.addEventListener('open', () => { rec.open = performance.now(); });
      ws.addEventListener('message', () => { rec.firstMessage ??= performance.now(); });
    }
    return ws;
  }
  Recording.prototype = Native.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Recording[k] = Native[k];
  window.WebSocket = Recording;
})()`;

export interface VncTimes { frameMs: number; socketCreatedMs?: number; openMs?: number; firstMessageMs?: number }

export const pageNow = (page: Page) => page.evaluate(() => performance.now());

/**
 * Clicks the VM page's "VNC console" tab and resolves with the ms until the canvas first shows the
 * guest (more than one colour), checked on every animation frame; rejects after `timeoutMs`.
 */
export async function measureVncFirstFrame(page: Page, timeoutMs = 30_000): Promise<VncTimes> {
  return page.evaluate((limit) => new Promise<VncTimes>((resolve, reject) => {
    const tab = [...document.querySelectorAll('nav[aria-label="VM sections"] button')].find((b) => b.textContent === 'VNC console') as HTMLButtonElement | undefined;
    if (!tab) { reject(new Error('no "VNC console" tab')); return; }
    const colours = (c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length && seen.size < 2; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      return seen.size;
    };
    const t0 = performance.now();
    tab.click();
    const tick = () => {
      const c = document.querySelector('[data-testid="vnc-screen"] canvas') as HTMLCanvasElement | null;
      if (c && c.width > 0 && c.height > 0 && colours(c) > 1) {
        const frameMs = performance.now() - t0;
        const socks = ((window as unknown as { __vncSockets?: { created: number; open?: number; firstMessage?: number }[] }).__vncSockets ?? []).filter((x) => x.created >= t0);
        const rel = (t?: number) => (t === undefined ? undefined : t - t0);
        resolve({ frameMs, socketCreatedMs: rel(socks[0]?.created), openMs: rel(socks[0]?.open), firstMessageMs: rel(socks[0]?.firstMessage) });
      }
      else if (performance.now() - t0 > limit) reject(new Error(`no VNC frame within ${limit} ms`));
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }), timeoutMs);
}

/** Leaves the console tab (closing its socket) so the next measurement opens a fresh one. */
export async function closeVncConsole(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Overview', exact: true }).click();
  await page.locator('[data-testid="vnc-screen"]').waitFor({ state: 'detached' });
}

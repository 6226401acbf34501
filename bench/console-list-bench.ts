/**
 * The VM list at scale: creates 1000 VMs (runStrategy Halted, so no guest starts) in a fresh
 * `kv up` cluster, then measures in Chromium (Playwright) the /vms page's largest contentful paint
 * and the time from an API write (a merge patch of one VM's CPU cores 1 → 2: no guest starts) to
 * the row showing it (MutationObserver in the page; both times on the page's clock).
 * Then a real status change (start one VM: the row's status badge changes, virt-controller's
 * reaction included) and the VNC console's first frame after opening it (bench/console-vnc-measure).
 * Goals: LCP ≤ 1 s, update ≤ 300 ms, VNC first frame ≤ 500 ms. Prints the figures.
 *
 *   node --import tsx bench/console-list-bench.ts [--vms 1000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { request } from 'node:https';
import { chromium, type Page } from '@playwright/test';
import { startCluster, type TestCluster } from '../e2e/harness';
import type { ApiAccess } from '../server/up/readiness';
import { closeVncConsole, measureVncFirstFrame, pageNow, RECORD_VNC_SOCKETS, watchRowStatusChange, type VncTimes } from './console-vnc-measure';

/** the page's window with the promise a round leaves for the next evaluate to await */
type BenchWindow = Window & { __seen?: Promise<number> };

const { values } = parseArgs({ options: { vms: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '5' } } });
const COUNT = Number(values.vms);
const ROUNDS = Number(values.rounds);
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function call(access: ApiAccess, method: string, path: string, body: unknown, contentType = 'application/json'): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = request(new URL(path, access.server), { method, ca: access.ca || undefined, headers: { authorization: `Bearer ${access.token}`, 'content-type': contentType, 'content-length': data.length } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject);
    req.end(data);
  });
}

const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const vmBody = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'default' },
  spec: { runStrategy: 'Halted', template: { spec: { domain: { cpu: { cores: 1 }, memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } } },
});

async function createVMs(access: ApiAccess): Promise<number> {
  const t0 = Date.now();
  const PARALLEL = 16;
  for (let i = 0; i < COUNT; i += PARALLEL) {
    const codes = await Promise.all(Array.from({ length: Math.min(PARALLEL, COUNT - i) }, (_, j) => call(access, 'POST', VMS, vmBody(`bench-${String(i + j).padStart(4, '0')}`))));
    const bad = codes.find((c) => c !== 201);
    if (bad) throw new Error(`create failed with HTTP ${bad}`);
  }
  return Date.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`;
const VNC_VM = 'bench-vnc';

/** Starts a halted VM from the list (status change seen in the row), then opens its VNC console ROUNDS times. */
async function measureStartAndVnc(page: Page, cluster: TestCluster): Promise<{ statusMs: number; vnc: VncTimes[] }> {
  const code = await call(cluster.access, 'POST', VMS, vmBody(VNC_VM));
  if (code !== 201) throw new Error(`create ${VNC_VM} failed with HTTP ${code}`);
  await page.goto(`${cluster.consoleUrl}/vms?q=${VNC_VM}`);
  await page.locator(`[data-vm="${VNC_VM}"][data-status="Stopped"]`).waitFor({ timeout: 60_000 });
  const seen = await watchRowStatusChange(page, VNC_VM, 'Stopped');
  const t0 = await pageNow(page);
  const started = await call(cluster.access, 'PUT', `/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/${VNC_VM}/start`, {});
  if (started !== 202) throw new Error(`start ${VNC_VM} answered HTTP ${started}`);
  const statusMs = (await seen()) - t0;
  await page.goto(`${cluster.consoleUrl}/vms/default/${VNC_VM}`);
  await page.locator('[data-status="Running"]').first().waitFor({ timeout: 180_000 });
  const vnc: VncTimes[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    vnc.push(await measureVncFirstFrame(page).catch(async (err: Error) => {
      await page.screenshot({ path: 'test-results/bench-vnc-failure.png' });
      throw new Error(`${err.message}; console: ${await page.getByTestId('console-state').innerText().catch(() => 'no console state')} (screenshot: test-results/bench-vnc-failure.png)`);
    }));
    await closeVncConsole(page);
  }
  return { statusMs, vnc };
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 1, timeoutMs: 180_000 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const createMs = await createVMs(cluster.access);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // tsx (esbuild keepNames) wraps named functions in __name(...); functions sent to page.evaluate need it defined
    await page.addInitScript('window.__name = (f) => f');
    await page.addInitScript(RECORD_VNC_SOCKETS);
    await page.goto(cluster.loginUrl!);
    await page.waitForURL(/\/$/);
    const lcps: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      await page.goto(`${cluster.consoleUrl}/vms?sort=name`);
      await page.locator('[data-vm="bench-0000"]').waitFor({ timeout: 60_000 });
      lcps.push(await page.evaluate(() => new Promise<number>((resolve) => {
        new PerformanceObserver((l) => { const e = l.getEntries(); resolve(e[e.length - 1].startTime); }).observe({ type: 'largest-contentful-paint', buffered: true });
      })));
    }
    const updates: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const name = `bench-000${r}`;
      await page.locator(`[data-vm="${name}"][data-cpus="1"]`).waitFor();
      await page.evaluate((n) => {
        (window as BenchWindow).__seen = new Promise<number>((resolve) => {
          const mo = new MutationObserver(() => {
            if (document.querySelector(`[data-vm="${n}"][data-cpus="2"]`)) { mo.disconnect(); resolve(performance.now()); }
          });
          mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-cpus'] });
        });
      }, name);
      const t0 = await page.evaluate(() => performance.now());
      await call(cluster.access, 'PATCH', `${VMS}/${name}`, { spec: { template: { spec: { domain: { cpu: { cores: 2 } } } } } }, 'application/merge-patch+json');
      const seen = await page.evaluate(() => (window as BenchWindow).__seen as Promise<number>);
      updates.push(seen - t0);
    }
    const { statusMs, vnc } = await measureStartAndVnc(page, cluster);
    const part = (k: keyof VncTimes) => median(vnc.map((v) => v[k] ?? NaN)).toFixed(0);
    process.stdout.write([
      `console-list-bench: ${COUNT} VMs (created in ${createMs} ms)`,
      `  /vms LCP: ${runs(lcps)} — goal ≤ 1000 ms`,
      `  API write → row updated: ${runs(updates)} — goal ≤ 300 ms`,
      `  start request → row status changed (controller included): ${statusMs.toFixed(0)} ms`,
      `  VNC tab click → first guest frame: ${runs(vnc.map((v) => v.frameMs))} — goal ≤ 500 ms`,
      `    (medians: socket created ${part('socketCreatedMs')} ms, open ${part('openMs')} ms, first RFB bytes ${part('firstMessageMs')} ms)`,
      '',
    ].join('\n'));
  } finally {
    await browser.close();
    await cluster.stop();
  }
}

void main();

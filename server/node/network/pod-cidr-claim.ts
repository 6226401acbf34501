/**
 * Which /24 of 10.244.0.0/16 a node's pods get. Every embedded cluster on the host shares the host's
 * network namespace, so two clusters (two `kv up` with different data dirs, a test cluster beside a
 * user's) must never put pods on the same bridge range. A node claims an index with a file in a
 * host-wide registry (`/run/kubevirt-ts/pod-cidrs/<index>`, created with O_EXCL, holding the node dir
 * and the kubelet's pid); a claim whose kubelet is gone may be taken over. A node prefers the index it
 * had before (kept in its node dir), then its own number (node-1 → 1), then the next free one.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_REGISTRY = '/run/kubevirt-ts/pod-cidrs';
const INDEXES = 255;

interface Claim { nodeDir: string; pid: number }

function readClaim(file: string): Claim | undefined {
  try {
    const [nodeDir, pid] = readFileSync(file, 'utf8').split('\n');
    return { nodeDir, pid: Number(pid) };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryClaim(file: string, nodeDir: string, pid: number): boolean {
  const content = `${nodeDir}\n${pid}\n`;
  try {
    const fd = openSync(file, 'wx', 0o644);
    writeSync(fd, content);
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const held = readClaim(file);
  if (held && held.nodeDir !== nodeDir && alive(held.pid)) return false;
  // ours from an earlier run, or abandoned: take it over (a racing taker re-checks after writing)
  writeFileSync(file, content);
  return readClaim(file)?.nodeDir === nodeDir;
}

function preferred(nodeName: string, nodeDir: string): number[] {
  const order: number[] = [];
  const previous = Number(readFileSync(join(nodeDir, 'network', 'pod-cidr-index'), { encoding: 'utf8', flag: 'a+' }).trim());
  if (Number.isInteger(previous) && previous >= 1 && previous <= INDEXES) order.push(previous);
  const own = Number(/(\d+)$/.exec(nodeName)?.[1] ?? NaN) % 256;
  if (own >= 1) order.push(own);
  for (let i = 0; i < INDEXES; i++) order.push(((own >= 1 ? own : 1) - 1 + i) % INDEXES + 1);
  return [...new Set(order)];
}

export interface PodCidrClaim { index: number; release(): void }

/** Claims a free index for this node (see the file comment); throws when all 255 are taken. */
export function claimPodCidrIndex(opts: { nodeName: string; nodeDir: string; registry?: string; pid?: number }): PodCidrClaim {
  const registry = opts.registry ?? process.env.KV_POD_CIDR_REGISTRY ?? DEFAULT_REGISTRY;
  mkdirSync(registry, { recursive: true });
  mkdirSync(join(opts.nodeDir, 'network'), { recursive: true });
  const pid = opts.pid ?? process.pid;
  for (const index of preferred(opts.nodeName, opts.nodeDir)) {
    const file = join(registry, String(index));
    if (!tryClaim(file, opts.nodeDir, pid)) continue;
    writeFileSync(join(opts.nodeDir, 'network', 'pod-cidr-index'), `${index}\n`);
    return { index, release: () => { if (readClaim(file)?.nodeDir === opts.nodeDir) rmSync(file, { force: true }); } };
  }
  throw new Error(`every pod range of 10.244.0.0/16 is taken by other embedded nodes on this host (${registry})`);
}

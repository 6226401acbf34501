/**
 * Where a VMI's launcher lives on this node, and what it left behind: `<DIR>/nodes/<node>/pods/<podUID>/`
 * with launcher.sock, launcher.ready, vnc.sock, serial.sock and termination.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { dataPaths } from '../data-dir';
import { POD_FILES } from '../virt-launcher/protocol';

/** The launcher Pod UID of this VMI on `node` (from status.activePods), if any. */
export function podUIDOnNode(vmi: VirtualMachineInstance, node: string): string | undefined {
  const entries = Object.entries(vmi.status?.activePods ?? {}).filter(([, n]) => n === node);
  return entries.length ? entries[entries.length - 1][0] : undefined;
}

export function podDirOf(dataDir: string, node: string, podUID: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(podUID)) throw new Error(`invalid pod UID ${JSON.stringify(podUID)}`);
  return join(dataPaths(dataDir).node(node), 'pods', podUID);
}

export const podFile = (podDir: string, file: keyof typeof POD_FILES) => join(podDir, POD_FILES[file]);

/** The launcher announced it listens (it may have exited since). */
export function isLauncherReady(podDir: string): boolean {
  return existsSync(podFile(podDir, 'launcherReady'));
}

/** What the launcher wrote when it exited, if it did. */
export function readTermination(podDir: string): { reason: string; message: string } | undefined {
  try {
    const t = JSON.parse(readFileSync(podFile(podDir, 'termination'), 'utf8')) as { reason?: string; message?: string };
    return { reason: t.reason ?? 'LauncherExited', message: t.message ?? 'virt-launcher exited' };
  } catch {
    return undefined;
  }
}

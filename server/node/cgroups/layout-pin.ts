import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupLayout } from './detect-cgroups';

export const LAYOUT_FILE = 'cgroup-layout.json';

function readPinned(nodeDir: string): CgroupLayout | undefined {
  try {
    const l = JSON.parse(readFileSync(join(nodeDir, LAYOUT_FILE), 'utf8')) as CgroupLayout;
    const dirs = l.version === 'v1' ? [l.v1?.cpu, l.v1?.memory] : [l.v2];
    return dirs.every((d) => typeof d === 'string' && existsSync(d)) ? l : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The layout the node's first kubelet found, kept in the node dir: a kubelet restarted from another
 * cgroup (another shell, another supervisor) still finds its Pods' cgroups and the stale ones.
 */
export function pinLayout(nodeDir: string, detect: () => CgroupLayout | undefined): CgroupLayout | undefined {
  const pinned = readPinned(nodeDir);
  if (pinned) return pinned;
  const found = detect();
  if (found) {
    mkdirSync(nodeDir, { recursive: true });
    writeFileSync(join(nodeDir, LAYOUT_FILE), JSON.stringify(found));
  }
  return found;
}

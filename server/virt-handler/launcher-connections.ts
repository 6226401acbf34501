/**
 * One LauncherClient per launcher pod dir, kept while the VMI lives on this node. Domain events
 * and disconnects call `onChange(key)` so the VMI is synced again (level-triggered).
 */
import type { DomainStatus } from '../virt-launcher/protocol';
import { LauncherClient } from '../virt-launcher/launcher-client';

export interface Entry {
  client: LauncherClient;
  key: string;
  synced: boolean;
  shutdownSent: boolean;
  /** the last domain status the launcher pushed or answered (survives the launcher's exit). */
  lastDomain?: DomainStatus;
}

export class LauncherConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly onChange: (key: string) => void) {}

  /** The client for `podDir`, created on first use (connection happens on the first request). */
  get(podDir: string, key: string): Entry {
    let e = this.entries.get(podDir);
    if (!e) {
      const client = new LauncherClient(podDir);
      const entry: Entry = { client, key, synced: false, shutdownSent: false };
      e = entry;
      client.on('domain', (status) => { entry.lastDomain = status; this.onChange(key); });
      client.on('disconnect', () => this.onChange(key));
      this.entries.set(podDir, e);
    }
    return e;
  }

  find(podDir: string): Entry | undefined {
    return this.entries.get(podDir);
  }

  release(podDir: string): void {
    const e = this.entries.get(podDir);
    if (!e) return;
    this.entries.delete(podDir);
    e.client.removeAllListeners();
    e.client.close();
  }

  /** Drop connections of VMIs that are no longer ours. */
  retain(podDirs: Set<string>): void {
    for (const dir of [...this.entries.keys()]) if (!podDirs.has(dir)) this.release(dir);
  }

  closeAll(): void {
    for (const dir of [...this.entries.keys()]) this.release(dir);
  }
}

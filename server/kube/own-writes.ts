/**
 * The resourceVersions our own writes replaced, per object key. Right after a write, a sync for
 * another reason (a Pod event, a timer) still finds the old version in the informer cache; writing
 * from it would fail with 409 and retry. A sync that sees a version we already replaced skips
 * instead: the watch event of our write is on its way and enqueues the key again.
 */
export class OwnWrites {
  private readonly replaced = new Map<string, Set<string>>();

  /**
   * A write of `key` over version `fromVersion` produced `toVersion`. A write the server found to
   * change nothing keeps the version and sends no watch event: that version is not stale.
   */
  wrote(key: string, fromVersion: string | undefined, toVersion: string | undefined): void {
    if (!fromVersion || fromVersion === toVersion) return;
    let s = this.replaced.get(key);
    if (!s) this.replaced.set(key, (s = new Set()));
    s.add(fromVersion);
  }

  /** whether the cached `version` of `key` is one our own write already replaced */
  isStale(key: string, version: string | undefined): boolean {
    const s = this.replaced.get(key);
    if (!s || !version) return false;
    if (s.has(version)) return true;
    this.replaced.delete(key); // the cache caught up: it never goes back to a version we replaced
    return false;
  }

  forget(key: string): void {
    this.replaced.delete(key);
  }
}

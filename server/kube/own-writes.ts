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

/**
 * The watch echoes of our own writes, for a controller that recounts on every change of an object
 * it also writes (the quota controller and its status): without this, each of its writes costs one
 * more recount. Events of a key arriving while our write of it is in flight are held until the write
 * ends and tells its version. One write per key at a time.
 */
export class OwnEchoes {
  /** key → versions seen while our write of it was in flight */
  private readonly inFlight = new Map<string, string[]>();
  /** key → the version our last write made, its event not seen yet */
  private readonly written = new Map<string, string>();

  /** our write of `key` starts */
  begin(key: string): void {
    this.inFlight.set(key, []);
  }

  /**
   * Our write of `key` ended, making `version` (undefined: it failed). Answers whether an event held
   * meanwhile was someone else's change: the caller acts on it now.
   */
  end(key: string, version: string | undefined): boolean {
    const seen = this.inFlight.get(key) ?? [];
    this.inFlight.delete(key);
    if (version !== undefined && !seen.includes(version)) this.written.set(key, version);
    return seen.some((v) => v !== version);
  }

  /** an event of `key` at `version`: whether to act on it (false: the echo of our write, or held until it ends) */
  isOthers(key: string, version: string): boolean {
    const seen = this.inFlight.get(key);
    if (seen) { seen.push(version); return false; }
    if (this.written.get(key) !== version) return true;
    this.written.delete(key);
    return false;
  }

  /** a new watch: its events are no echoes we wait for */
  clear(): void {
    this.inFlight.clear();
    this.written.clear();
  }
}

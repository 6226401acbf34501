/** How long an unmet expectation blocks a controller before it is ignored (KubeVirt's ExpectationsTimeout). */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

interface Record {
  add: number;
  del: number;
  /** UIDs of objects whose deletion was requested and not yet observed. */
  deleting: Set<string>;
  setAt: number;
}

/**
 * Controller expectations with UID tracking, like KubeVirt's UIDTrackingControllerExpectations:
 * before creating N objects for `key` a controller calls expectCreations(key, N); the informer's
 * add handler calls creationObserved(key). While not `satisfied`, the controller must not act on
 * its (lagging) cache, so it never creates a duplicate launcher Pod. Expired records count as
 * satisfied, so a lost watch event blocks a key for at most the TTL.
 */
export class Expectations {
  private readonly records = new Map<string, Record>();

  constructor(
    private readonly ttlMs = EXPECTATIONS_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  expectCreations(key: string, n: number): void {
    this.set(key, n, 0, []);
  }

  expectDeletions(key: string, uids: string[]): void {
    this.set(key, 0, uids.length, uids);
  }

  /** Add to what is already expected (a second create for the same key before the first was observed). */
  raiseExpectations(key: string, add: number, del = 0): void {
    const r = this.records.get(key);
    if (!r) return this.set(key, add, del, []);
    r.add += add;
    r.del += del;
    r.setAt = this.now();
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.add--;
  }

  /** Count a deletion once per UID (a delete event and a relist can both report it). */
  deletionObserved(key: string, uid?: string): void {
    const r = this.records.get(key);
    if (!r) return;
    if (uid !== undefined) {
      if (!r.deleting.delete(uid)) return;
    }
    r.del--;
  }

  /** Undo expectations for writes that failed (the create returned an error, so no event will come). */
  lowerExpectations(key: string, add: number, del = 0): void {
    const r = this.records.get(key);
    if (!r) return;
    r.add -= add;
    r.del -= del;
  }

  satisfied(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.now() - r.setAt > this.ttlMs;
  }

  /** Forget a key (its owner was deleted). */
  deleteExpectations(key: string): void {
    this.records.delete(key);
  }

  /** For logs and tests: what is still expected. */
  pending(key: string): { add: number; del: number } | undefined {
    const r = this.records.get(key);
    return r && { add: r.add, del: r.del };
  }

  private set(key: string, add: number, del: number, uids: string[]): void {
    this.records.set(key, { add, del, deleting: new Set(uids), setAt: this.now() });
  }
}

/**
 * Open VNC sessions per VMI, for `preserveSession=true`: such a request is refused while another
 * session is open, instead of taking it over (the default, like KubeVirt).
 */
import { VMI_RESOURCE, conflict } from './api-error';

export const ACTIVE_VNC_MESSAGE = 'Active VNC connection. Request denied.';

export class VncSessions {
  private readonly open = new Map<string, number>();

  checkPreserve(uid: string, name: string, preserveSession: boolean): void {
    if (preserveSession && (this.open.get(uid) ?? 0) > 0) throw conflict(VMI_RESOURCE, name, ACTIVE_VNC_MESSAGE);
  }

  /** Counts a session; call the returned function when it ends. */
  track(uid: string): () => void {
    this.open.set(uid, (this.open.get(uid) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.open.get(uid) ?? 1) - 1;
      if (n > 0) this.open.set(uid, n);
      else this.open.delete(uid);
    };
  }
}

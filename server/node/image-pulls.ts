/**
 * The kubelet's image pulls for a launcher Pod's containerDisks (annotation
 * `kubevirt-ts.io/container-disks`, server/images/pod-images.ts): before the launcher starts, each
 * image is made present in the node's image store as its pull policy says (server/images
 * image-pull.ts), with the Pod's imagePullSecrets. While that runs the container waits as
 * ContainerCreating; a failure shows as ErrImagePull with the registry's answer, then as
 * ImagePullBackOff until the next try (10 s doubling to 5 min, as a kubelet backs off). A migration
 * target Pod takes what the store has (IfNotPresent): every node of a `kv up` cluster shares the store,
 * so it gets the very digest its source runs on even when the tag moved since.
 */
import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import { log } from '../log';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { ensureImage } from '../images/image-pull';
import { decodePodImages } from '../images/pod-images';
import { parseDockerConfigSecret } from '../images/registry/docker-config';
import { RegistryError } from '../images/registry/registry-error';
import { Annotation } from '../../lib/kubevirt/labels';

export const ERR_IMAGE_PULL = 'ErrImagePull';
export const IMAGE_PULL_BACK_OFF = 'ImagePullBackOff';
export const ERR_IMAGE_NEVER_PULL = 'ErrImageNeverPull';

export interface PullWait { reason: string; message: string }

interface PullState {
  done: boolean; pulling: boolean; failures: number; retryAt: number;
  error?: PullWait & { image: string };
  /** the failure was reported once as itself (ErrImagePull); from then on as ImagePullBackOff */
  shown?: boolean;
  /** the pull under way, ended (pulling false, requeued) when it settles */
  inflight?: Promise<void>;
}

/** how long ErrImagePull shows before the Pod says ImagePullBackOff (a kubelet's next sync) */
const ERR_SHOWN_MS = 2000;

export interface ImagePullsOptions {
  imagesDir: string;
  core: Pick<CoreV1Api, 'readNamespacedSecret'>;
  events: Pick<EventRecorder, 'record'>;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

const logger = log.child({ component: 'kubelet-images' });

export class ImagePulls {
  private readonly states = new Map<string, PullState>();

  constructor(private readonly opts: ImagePullsOptions) {}

  /**
   * Whether the Pod's images are all present. When not, a pull runs (or waits for its back-off) and
   * the result says what the container waits for; `requeue` is called when that may change.
   */
  check(pod: V1Pod, uid: string, requeue: (afterMs?: number) => void): { ready: true } | { ready: false; wait?: PullWait } {
    const images = decodePodImages(pod.metadata?.annotations?.[Annotation.ContainerDisks]);
    if (!images.length) return { ready: true };
    const s = this.states.get(uid) ?? { done: false, pulling: false, failures: 0, retryAt: 0 };
    this.states.set(uid, s);
    if (s.done) return { ready: true };
    if (s.pulling) return { ready: false, wait: s.error && { reason: s.error.reason, message: s.error.message } };
    const left = s.retryAt - Date.now();
    if (s.error && left > 0 && !s.shown) {
      s.shown = true;
      requeue(Math.min(left, ERR_SHOWN_MS));
      return { ready: false, wait: { reason: s.error.reason, message: s.error.message } };
    }
    if (s.error && left > 0) {
      requeue(left);
      return { ready: false, wait: { reason: IMAGE_PULL_BACK_OFF, message: `Back-off pulling image "${s.error.image}": ${s.error.reason}: ${s.error.message}` } };
    }
    s.pulling = true;
    s.inflight = this.pull(pod, images, s).finally(() => { s.pulling = false; s.inflight = undefined; requeue(); });
    return { ready: false, wait: s.error && { reason: s.error.reason, message: s.error.message } };
  }

  /**
   * Waits for the Pod's pull under way, but not past the current turn of the event loop: a pull that
   * needs no I/O wait (every image already in the node's store, no pull Secret to read) has ended
   * by then, so the sync goes on to start the container and the Pod's first status is what follows
   * (Running), not a ContainerCreating write for a wait that never was. A pull that talks to a
   * registry is still under way: the Pod shows ContainerCreating while it runs, as before.
   */
  async settledAtOnce(uid: string): Promise<void> {
    const pull = this.states.get(uid)?.inflight;
    if (pull) await Promise.race([pull, new Promise<void>((r) => setImmediate(r))]);
  }

  forget(uid: string): void {
    this.states.delete(uid);
  }

  private async pull(pod: V1Pod, images: ReturnType<typeof decodePodImages>, s: PullState): Promise<void> {
    const auths = await this.pullSecrets(pod);
    // a migration target uses the disk its source runs on: what the store has, never a moved tag
    const target = Boolean(pod.metadata?.annotations?.[Annotation.MigrationJobName]);
    for (const { image, imagePullPolicy } of images) {
      const started = Date.now();
      try {
        const r = await ensureImage(this.opts.imagesDir, image, { policy: target ? 'IfNotPresent' : imagePullPolicy, auths });
        const said = r.pulled ? `Successfully pulled image "${image}" in ${((Date.now() - started) / 1000).toFixed(3)}s (digest ${r.digest})` : `Container image "${image}" already present on machine`;
        void this.opts.events.record(pod, EventTypeNormal, 'Pulled', said);
      } catch (err) {
        const message = (err as Error).message;
        s.failures++;
        s.retryAt = Date.now() + Math.min(this.opts.backoffMaxMs ?? 300_000, (this.opts.backoffBaseMs ?? 10_000) * 2 ** (s.failures - 1));
        const never = err instanceof RegistryError && err.code === 'NotPresent';
        s.shown = false;
        s.error = never ? { image, reason: ERR_IMAGE_NEVER_PULL, message } : { image, reason: ERR_IMAGE_PULL, message: `failed to pull image "${image}": ${message}` };
        void this.opts.events.record(pod, EventTypeWarning, 'Failed', `Failed to pull image "${image}": ${message}`);
        logger.warn({ pod: pod.metadata?.name, image, err: message }, 'image pull failed');
        return;
      }
    }
    s.done = true;
    s.error = undefined;
  }

  /** `auths` of the Pod's imagePullSecrets in order (a missing Secret is skipped, as a kubelet does). */
  private async pullSecrets(pod: V1Pod): Promise<ReturnType<typeof parseDockerConfigSecret>[]> {
    const out: ReturnType<typeof parseDockerConfigSecret>[] = [];
    for (const ref of pod.spec?.imagePullSecrets ?? []) {
      if (!ref.name) continue;
      try {
        const secret = await this.opts.core.readNamespacedSecret({ name: ref.name, namespace: pod.metadata?.namespace ?? 'default' });
        out.push(parseDockerConfigSecret(secret.type, secret.data));
      } catch (err) {
        logger.warn({ pod: pod.metadata?.name, secret: ref.name, err: (err as Error).message }, 'image pull secret unreadable; pulling without it');
      }
    }
    return out;
  }
}

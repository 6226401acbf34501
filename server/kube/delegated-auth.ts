/**
 * Delegated authentication and authorization, as a kubelet or an aggregated server does it: the
 * caller's bearer token goes to TokenReview, the user it names to SubjectAccessReview for the
 * attributes of the request. Decisions are cached briefly per token and attributes (allowed for
 * `allowTtlMs`, denied for `denyTtlMs`), so a follower streaming a log costs one review, not one a poll.
 */
import { createHash } from 'node:crypto';
import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig, type V1ResourceAttributes } from '@kubernetes/client-node';

export type Review = { allowed: true; username: string } | { allowed: false; code: 401 | 403; message: string; username?: string };

export interface DelegatedAuthOptions {
  allowTtlMs?: number;
  denyTtlMs?: number;
  now?: () => number;
}

/** the bearer token of an Authorization header, or undefined */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export class DelegatedAuth {
  private readonly cache = new Map<string, { review: Review; until: number }>();
  private readonly authn: AuthenticationV1Api;
  private readonly authz: AuthorizationV1Api;

  constructor(kc: KubeConfig, private readonly opts: DelegatedAuthOptions = {}) {
    this.authn = kc.makeApiClient(AuthenticationV1Api);
    this.authz = kc.makeApiClient(AuthorizationV1Api);
  }

  async review(token: string | undefined, attrs: V1ResourceAttributes): Promise<Review> {
    if (!token) return { allowed: false, code: 401, message: 'Unauthorized' };
    const now = (this.opts.now ?? Date.now)();
    const key = createHash('sha256').update(token).update('\0').update(JSON.stringify(attrs)).digest('hex');
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.review;
    const review = await this.ask(token, attrs);
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, { review, until: now + (review.allowed ? (this.opts.allowTtlMs ?? 30_000) : (this.opts.denyTtlMs ?? 5_000)) });
    return review;
  }

  private async ask(token: string, attrs: V1ResourceAttributes): Promise<Review> {
    const tr = await this.authn.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
    const user = tr.status?.user;
    if (!tr.status?.authenticated || !user?.username) return { allowed: false, code: 401, message: 'Unauthorized' };
    const sar = await this.authz.createSubjectAccessReview({
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: user.username, groups: user.groups, uid: user.uid, resourceAttributes: attrs } },
    });
    if (sar.status?.allowed) return { allowed: true, username: user.username };
    // the kubelet's wording for a denied request
    return { allowed: false, code: 403, username: user.username, message: `Forbidden (user=${user.username}, verb=${attrs.verb}, resource=${attrs.resource}, subresource=${attrs.subresource ?? ''})` };
  }
}

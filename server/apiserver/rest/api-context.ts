import type { Logger } from '../../log';
import type { WebhookConfiguration } from '../admission/webhook-rules';
import type { APIService } from '../aggregation/api-service-target';
import type { RbacCache } from '../rbac/rbac-cache';
import type { Store } from '../store/types';
import type { TypeRegistry } from './types/type-registry';

export interface User { username: string; groups: string[] }

export const SYSTEM_USER: User = { username: 'system:apiserver', groups: ['system:masters'] };

/** Everything a request handler or in-process controller needs. */
export interface ApiContext {
  store: Store;
  registry: TypeRegistry;
  /** Mutating/ValidatingWebhookConfiguration objects, kept current by a store watch */
  webhooks: { mutating: WebhookConfiguration[]; validating: WebhookConfiguration[] };
  /** APIService objects, kept current by a store watch */
  apiservices: APIService[];
  log: Logger;
  /** the RBAC policy in memory (Roles, ClusterRoles and their bindings) */
  rbac: RbacCache;
  /** called after every committed write (keeps the CRD, webhook and APIService caches current) */
  afterWrite?: (rt: { group: string; resource: string }) => void;
  /** the API server's credential for kubelets' APIs (container logs) */
  kubeletClientToken?: string;
  /** the user behind a bearer token, for TokenReview (audiences: a bound token must be meant for one of them) */
  authenticateToken?: (token: string, audiences?: string[]) => User | undefined;
  /** the CA that signed the serving certificate (published as ConfigMap kube-root-ca.crt in every namespace) */
  rootCaPem?: string;
  /** signs ServiceAccount tokens (serviceaccounts/token) */
  tokenSigner?: import('../sa-token-signer').TokenSigner;
  /** signs CDI upload tokens (UploadTokenRequest) */
  uploadTokenKey?: import('node:crypto').KeyObject;
}

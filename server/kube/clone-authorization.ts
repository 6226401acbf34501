/**
 * Who may clone a claim (or snapshot) out of another namespace — CDI's rule, used by virt-controller
 * for a VM's dataVolumeTemplates (as the VM's ServiceAccount) and by the storage component for a
 * DataVolume a user creates (as that user). Same namespace: always allowed. Across namespaces, in
 * the source namespace, a PVC source needs `create` on `datavolumes/source` (cdi.kubevirt.io)
 * — explicit — OR `create` on pods — implicit, whoever can run a Pod there could read the claim
 * anyway. A snapshot source needs the explicit grant, or else both `create` pods and `create` pvcs.
 * Denied: CDI's message `User <name> has insufficient permissions in clone source namespace <ns>`.
 */
import { AuthorizationV1Api, type KubeConfig, type V1ResourceAttributes } from '@kubernetes/client-node';

export interface CloneSource { kind: 'pvc' | 'snapshot'; namespace: string; name: string }

/** who asks: a user's identity (from the request) or a ServiceAccount's */
export interface CloneRequester { user: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> }

export type CloneAuthorization = { allowed: true } | { allowed: false; reason: string };

/** a SubjectAccessReview for `who`: true when allowed */
export type AccessReview = (who: CloneRequester, attrs: V1ResourceAttributes) => Promise<boolean>;

interface SourceSpec { pvc?: { namespace?: string; name?: string }; snapshot?: { namespace?: string; name?: string } }

/** PURE: what a DataVolume spec clones from (its namespace defaulted to the target's), or undefined for other sources */
export function cloneSourceOf(source: SourceSpec | undefined, targetNamespace: string): CloneSource | undefined {
  if (source?.pvc?.name) return { kind: 'pvc', namespace: source.pvc.namespace || targetNamespace, name: source.pvc.name };
  if (source?.snapshot?.name) return { kind: 'snapshot', namespace: source.snapshot.namespace || targetNamespace, name: source.snapshot.name };
  return undefined;
}

/** PURE: the identity CDI reviews for a ServiceAccount (its user name and the groups every SA token carries) */
export function serviceAccountRequester(namespace: string, name: string): CloneRequester {
  return { user: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'] };
}

interface VMLike { spec?: { template?: { spec?: { serviceAccountName?: string; volumes?: { serviceAccount?: { serviceAccountName?: string } }[] } } } }

/** PURE: the ServiceAccount a VM's clones are authorized as: the pod's serviceAccountName, else its serviceAccount volume's, else `default` */
export function vmServiceAccountName(vm: VMLike): string {
  const spec = vm.spec?.template?.spec;
  if (spec?.serviceAccountName) return spec.serviceAccountName;
  return spec?.volumes?.find((v) => v.serviceAccount?.serviceAccountName)?.serviceAccount?.serviceAccountName ?? 'default';
}

/** PURE: CDI's denial message */
export function insufficientPermissions(user: string, sourceNamespace: string): string {
  return `User ${user} has insufficient permissions in clone source namespace ${sourceNamespace}`;
}

const explicit = (s: CloneSource): V1ResourceAttributes => ({ namespace: s.namespace, verb: 'create', group: 'cdi.kubevirt.io', resource: 'datavolumes', subresource: 'source', name: s.name });
const implicit = (s: CloneSource, resource: string): V1ResourceAttributes => ({ namespace: s.namespace, verb: 'create', group: '', resource, name: s.name });

/**
 * May `who` clone `source` into `targetNamespace`? A PVC: any one of the explicit and the pods grant
 * (asked in that order, stopping at the first yes). A snapshot: the explicit grant, else pods AND pvcs.
 */
export async function authorizeClone(review: AccessReview, who: CloneRequester, source: CloneSource, targetNamespace: string): Promise<CloneAuthorization> {
  if (source.namespace === targetNamespace) return { allowed: true };
  const denied: CloneAuthorization = { allowed: false, reason: insufficientPermissions(who.user, source.namespace) };
  if (await review(who, explicit(source))) return { allowed: true };
  if (source.kind === 'pvc') return (await review(who, implicit(source, 'pods'))) ? { allowed: true } : denied;
  for (const resource of ['pods', 'pvcs']) if (!(await review(who, implicit(source, resource)))) return denied;
  return { allowed: true };
}

/** an AccessReview that sends SubjectAccessReviews to the API server (errors propagate: the caller retries) */
export function subjectAccessReviewer(kc: KubeConfig): AccessReview {
  let api: AuthorizationV1Api | undefined; // made on first use
  return async (who, attrs) => {
    api ??= kc.makeApiClient(AuthorizationV1Api);
    const sar = await api.createSubjectAccessReview({
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: who.user, groups: who.groups, uid: who.uid, extra: who.extra, resourceAttributes: attrs } },
    });
    return sar.status?.allowed === true;
  };
}

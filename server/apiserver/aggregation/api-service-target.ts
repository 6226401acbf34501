import { resolveServiceTarget } from '../admission/service-resolver';

/** Annotation that points an APIService straight at a URL (embedded mode, tests). */
export const ENDPOINT_ANNOTATION = 'apiserver.kubevirt-ts.io/endpoint';

export interface ProxyTarget {
  url: URL;
  /** DNS name TLS is verified against (service DNS name), when not the URL's host */
  serverName?: string;
  ca?: string;
  insecure: boolean;
}

/** an apiregistration.k8s.io/v1 APIService, the fields the proxy reads */
export interface APIService {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: {
    group?: string;
    version?: string;
    /** absent or null for a Local APIService */
    service?: { namespace?: string; name?: string; port?: number } | null;
    caBundle?: string;
    insecureSkipTLSVerify?: boolean;
  };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** Where to send requests for an APIService: annotation URL, else its service via the resolver. */
export function apiServiceTarget(svc: APIService | undefined): ProxyTarget {
  const spec: NonNullable<APIService['spec']> = svc?.spec ?? {};
  const insecure = spec.insecureSkipTLSVerify === true;
  const ca = spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined;
  const override = svc?.metadata?.annotations?.[ENDPOINT_ANNOTATION];
  if (override) return { url: new URL(override), ca, insecure };
  const { namespace, name, port } = spec.service ?? {};
  const target = resolveServiceTarget(namespace as string, name as string, port);
  return { url: new URL(target.baseURL), serverName: target.serverName, ca, insecure };
}

/** Available unless its Available condition says otherwise (nobody may be managing status). */
export function isAPIServiceAvailable(svc: APIService | undefined): boolean {
  const cond = (svc?.status?.conditions ?? []).find((c) => c.type === 'Available');
  return !cond || cond.status === 'True';
}

/**
 * The APIService serving group/version, if it is proxied to a service. `Local` APIServices (no
 * spec.service: the API server's own groups) are not proxied and not returned.
 */
export function findAPIService(apiservices: APIService[], group: string, version: string): APIService | undefined {
  return (apiservices ?? []).find(
    (s) => s?.spec?.group === group && s?.spec?.version === version && (s.spec.service || s.metadata?.annotations?.[ENDPOINT_ANNOTATION]),
  );
}

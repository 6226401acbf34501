/**
 * Where a webhook's or an APIService's `service` reference is dialled. In a cluster that is the
 * service DNS name; in embedded mode there is no cluster DNS, so the lead wires a resolver (or the
 * KV_SERVICE_ENDPOINTS env var, JSON {"<namespace>/<name>": "https://127.0.0.1:8443"}) that maps
 * the service to a local address. TLS is still verified against the service DNS name.
 */

export interface ServiceTarget {
  /** base URL to dial, e.g. https://127.0.0.1:8443 (no path) */
  baseURL: string;
  /** DNS name the serving certificate must carry: <name>.<namespace>.svc */
  serverName: string;
}

export type ServiceResolver = (namespace: string, name: string, port: number) => string;

export const DEFAULT_SERVICE_PORT = 443;

/** Cluster DNS, or an entry of KV_SERVICE_ENDPOINTS. */
export const defaultServiceResolver: ServiceResolver = (namespace, name, port) => {
  const table = readEndpointTable();
  return table[`${namespace}/${name}`] ?? `https://${name}.${namespace}.svc:${port}`;
};

/** Replaced by the lead's wiring (`setServiceResolver`); read it through `resolveServiceTarget`. */
export let resolveService: ServiceResolver = defaultServiceResolver;

export function setServiceResolver(resolver: ServiceResolver): void {
  resolveService = resolver;
}

export function resolveServiceTarget(namespace: string, name: string, port = DEFAULT_SERVICE_PORT): ServiceTarget {
  return { baseURL: resolveService(namespace, name, port).replace(/\/+$/, ''), serverName: `${name}.${namespace}.svc` };
}

let cachedEnv: string | undefined;
let cachedTable: Record<string, string> = {};

function readEndpointTable(): Record<string, string> {
  const raw = process.env.KV_SERVICE_ENDPOINTS ?? '';
  if (raw !== cachedEnv) {
    cachedEnv = raw;
    try {
      cachedTable = raw ? JSON.parse(raw) : {};
    } catch {
      cachedTable = {};
    }
  }
  return cachedTable;
}

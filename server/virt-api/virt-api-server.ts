/**
 * virt-api: one HTTPS server for the admission webhooks, the aggregated API
 * `subresources.kubevirt.io` (discovery, lifecycle verbs, console streams) and /healthz.
 * `startVirtApi` issues its certificate from the cluster CA and registers itself (embedded mode).
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { KubernetesObject } from '@kubernetes/client-node';
import { KUBEVIRT_GROUP, KUBEVIRT_VERSION, SUBRESOURCES_GROUP, VirtualMachineInstancePresetResource } from '../../lib/kubevirt';
import type { VirtualMachineInstanceMigration } from '../../lib/kubevirt';
import { CustomResourceClient, jsonPatch, makeKubeClients } from '../kube/clients';
import { EventRecorder } from '../kube/events';
import { Informer } from '../kube/informer';
import { collectionPath } from '../kube/resources';
import { BY_NAMESPACE as PRESETS_BY_NAMESPACE, presetLookups } from './admission/preset-lookup';
import { restoreLookups } from './admission/restore-lookup';
import { loadKubeConfig } from '../kube/kubeconfig';
import { ClusterConfig } from '../kube/cluster-config';
import { volumeSourceLookups } from '../kube/volume-source-lookup';
import { InstancetypeLookup } from '../kube/instancetype-lookup';
import { admissionConfigFrom } from './admission/admission-config';
import { log } from '../log';
import { createAdmissionListener } from './admission/webhook-server';
import { ApiError, rejectUpgrade, sendApiError } from './api-error';
import { serveStream } from './console-proxy';
import { servePortForward } from './port-forward-proxy';
import { apiGroup, apiResourceList, SERVED_VERSIONS } from './discovery';
import { registerVirtApi } from './register';
import { createAuthorizer, identifyCaller } from './request-auth';
import { loadServingCert } from './serving-cert';
import { messageOf } from '../kube/api-errors';
import { retryWhileUnreachable } from '../kube/while-unreachable';
import type { SubresourceContext } from './subresource-context';
import { serveExpandVMSpecRequest, serveSubresource } from './subresource-handlers';
import { parseExpandVMSpecPath, parseSubresourcePath } from './subresource-path';
import { requestPathname } from '../http/request-target';
import { VncSessions } from './vnc-sessions';
import { warmAdmissionSchemas } from './admission/validators/admission-schemas';

const apiLog = log.child({ component: 'virt-api' });
const WEBHOOK_PATH = /^\/(mutate|validate)-[a-z]+$/;

export interface VirtApiOptions {
  kubeconfig?: string;
  /** Embedded mode: the cluster data dir (CA to issue our cert, node handler tokens). Registers the APIService and webhooks. */
  dataDir: string;
  /** 0 = a free port */
  port?: number;
  host?: string;
  /** Origins (besides our own host) allowed to open console sockets, e.g. the web console's URL. */
  allowedOrigins?: string[];
  register?: boolean;
}

export interface VirtApi { url: string; port: number; close(): Promise<void> }

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function serveDiscovery(pathname: string, res: ServerResponse): boolean {
  if (pathname === '/healthz' || SERVED_VERSIONS.some((v) => pathname === `/apis/${SUBRESOURCES_GROUP}/${v}/healthz`)) {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return true;
  }
  if (pathname === `/apis/${SUBRESOURCES_GROUP}`) return sendJson(res, 200, apiGroup()), true;
  const version = SERVED_VERSIONS.find((v) => pathname === `/apis/${SUBRESOURCES_GROUP}/${v}`);
  if (version) return sendJson(res, 200, apiResourceList(version)), true;
  if (pathname === '/apis') return sendJson(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [apiGroup()] }), true;
  return false;
}

export async function startVirtApi(opts: VirtApiOptions): Promise<VirtApi> {
  const kc = loadKubeConfig(opts.kubeconfig);
  const clients = makeKubeClients(kc);
  // started while the API server restarts (kv up restarts both), wait for it instead of exiting
  const untilServed = <T>(what: string, fn: () => Promise<T>) => retryWhileUnreachable(fn, { onRetry: (err) => apiLog.warn({ err: messageOf(err) }, `${what}: API server unreachable; retrying`) });
  const cert = await untilServed('serving certificate', () => loadServingCert(opts.dataDir, clients.core));
  const ctx: SubresourceContext = {
    custom: kc.makeApiClient(CustomObjectsApi), core: kc.makeApiClient(CoreV1Api), authorizer: createAuthorizer(kc),
    handlers: { core: clients.core, dataDir: opts.dataDir }, vnc: new VncSessions(), allowedOrigins: opts.allowedOrigins ?? [],
    instancetypes: new InstancetypeLookup(kc),
  };
  // the KubeVirt CR's configuration, read on every review: a `kubectl patch kubevirt` applies at once
  const clusterConfig = new ClusterConfig(kc);
  const configAbort = new AbortController();
  void clusterConfig.run(configAbort.signal);
  const presetCache = new Informer<KubernetesObject>({ kc, path: collectionPath(VirtualMachineInstancePresetResource), indexers: { [PRESETS_BY_NAMESPACE]: (p) => [p.metadata?.namespace] } });
  void presetCache.run(configAbort.signal);
  apiLog.info({ ms: Math.round(warmAdmissionSchemas()) }, 'admission schemas compiled');
  const admission = createAdmissionListener({
    config: () => admissionConfigFrom(clusterConfig.configuration()),
    instancetypes: new InstancetypeLookup(kc),
    volumeSources: volumeSourceLookups(kc),
    presets: presetLookups(new CustomResourceClient(clients.custom, VirtualMachineInstancePresetResource), new EventRecorder(clients.core, { component: 'virt-api' }), presetCache),
    getVMI: (ns, name) => clients.vmis.get(ns, name).catch(() => undefined) as never,
    listMigrations: async (ns) => ((await clients.migrations.list(ns)).items ?? []) as KubernetesObject[] as VirtualMachineInstanceMigration[],
    restores: restoreLookups(clients.custom, clients.vms),
    getPod: (namespace, name) => clients.core.readNamespacedPod({ namespace, name }).catch(() => undefined),
    markForEvacuation: async (namespace, name, node) => {
      await ctx.custom.patchNamespacedCustomObjectStatus({
        group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachineinstances', namespace, name,
        body: [{ op: 'add', path: '/status/evacuationNodeName', value: node }],
      }, jsonPatch);
    },
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = requestPathname(req.url);
    if (pathname === undefined) return sendApiError(res, new ApiError(400, 'BadRequest', 'invalid request target'));
    if (serveDiscovery(pathname, res)) return;
    if (WEBHOOK_PATH.test(pathname)) return void admission(req, res);
    const expand = parseExpandVMSpecPath(pathname);
    if (expand) {
      Promise.resolve().then(() => serveExpandVMSpecRequest(ctx, identifyCaller(req), expand.namespace, req, res)).catch((err) => {
        if (!(err instanceof ApiError)) apiLog.warn({ err, path: pathname }, 'expand-vm-spec failed');
        sendApiError(res, err);
      });
      return;
    }
    const path = parseSubresourcePath(pathname);
    if (!path) return sendApiError(res, new ApiError(404, 'NotFound', 'the server could not find the requested resource'));
    Promise.resolve().then(() => serveSubresource(ctx, identifyCaller(req), path, req, res)).catch((err) => {
      if (!(err instanceof ApiError)) apiLog.warn({ err, path: pathname }, 'subresource failed');
      sendApiError(res, err);
    });
  };
  // idle keep-alive connections are closed by the client (the API server's webhook agent, which reads
  // our hint) well before we would: a close racing a reuse fails a review or a command under load
  const server: Server = createServer({ cert: cert.certPem, key: cert.keyPem, ca: cert.caPem, requestCert: true, rejectUnauthorized: false, keepAliveTimeout: 65_000 } as never, onRequest);
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const pathname = requestPathname(req.url);
    const path = pathname === undefined ? undefined : parseSubresourcePath(pathname);
    if (!path) return rejectUpgrade(socket, new ApiError(404, 'NotFound', 'the server could not find the requested resource'));
    let caller;
    try { caller = identifyCaller(req); } catch (err) { return rejectUpgrade(socket, err); }
    if (path.subresource.startsWith('portforward')) return void servePortForward(ctx, caller, path, req, socket, head);
    void serveStream(ctx, caller, path, req, socket, head);
  });
  const sockets = new Set<Socket>();
  server.on('secureConnection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(opts.port ?? 0, host, resolve); });
  const port = (server.address() as AddressInfo).port;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (opts.register !== false) await untilServed('registration', () => registerVirtApi(kc, { url, host, port, caPem: cert.caPem }));
  apiLog.info({ url }, 'virt-api ready');
  return {
    url, port,
    close: () => new Promise<void>((resolve) => { configAbort.abort(); server.close(() => resolve()); for (const s of sockets) s.destroy(); }),
  };
}

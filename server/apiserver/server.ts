import { createServer, type Server } from 'node:https';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { log } from '../log';
import { dataPaths } from '../data-dir';
import { ensureTokenSigner } from './sa-token-signer';
import { ensureUploadTokenKey, publishUploadTokenKey } from './upload-token-key';
import { serviceAccountTokenAuthenticator } from './sa-token-authn';
import { authenticateToken, ensureTokens, tokenFor, ADMIN_USER, KUBELET_CLIENT_USER, VIEWER_USER } from './tokens';
import { ensurePki } from './pki';
import { applyCRDFolder, DEFAULT_CRD_DIR, ensureSystemNamespaces } from './bootstrap';
import { startConfigCaches } from './config-caches';
import { createRequestListener } from './http-router';
import { createApiServerMetrics } from './metrics';
import { createUpgradeListener } from './upgrade-handler';
import { wireAggregation } from './aggregation-wiring';
import type { ApiContext } from './rest/api-context';
import { TypeRegistry } from './rest/types/type-registry';
import { openSqliteStore } from './store/sqlite-store';
import type { Store } from './store/types';
import { startControllers } from './controllers';
import { ensureKubernetesService } from './kubernetes-service';
import { listenOnAdvertiseAddress, removeAdvertiseLink } from './advertise-address';
import { publishExtensionApiserverAuthentication } from './extension-apiserver-authentication';
import { mkdirSync } from 'node:fs';
import { RbacCache } from './rbac/rbac-cache';
import { reconcileBootstrapPolicy } from './rbac/reconcile-policy';
import { aggregateClusterRoles } from './controllers/clusterrole-aggregation-controller';

export interface ApiServerOptions {
  dataDir: string;
  /** 0 = a free port */
  port?: number;
  host?: string;
  /**
   * also listen here, on the same port, and name this address in the `kubernetes` Service's
   * Endpoints (kube-apiserver's --advertise-address): Pods with their own network reach it
   */
  advertiseAddress?: string;
  storeFactory?: (dbPath: string) => Store;
  /** folder of CRD YAMLs applied at start (default deploy/crds) */
  crdDir?: string;
  /** apply the CRD folder and KubeVirt's bootstrap RBAC at start (default); false for a bare cluster, whose CRDs and roles come with an install */
  installCRDs?: boolean;
  bookmarkIntervalMs?: number;
  /** node lease expiry (default 40 s) */
  nodeLeaseTimeoutMs?: number;
  /** events expire after this long (default 1 h) */
  eventTTLMs?: number;
}

export interface ApiServer {
  url: string;
  port: number;
  caPem: string;
  adminToken: string;
  viewerToken: string;
  ctx: ApiContext;
  close(): Promise<void>;
}

const COMPACT_KEEP = 10_000;

/** starts the embedded Kubernetes API server (HTTPS, bearer tokens, SQLite revision log) */
export async function startApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const paths = dataPaths(opts.dataDir);
  mkdirSync(paths.apiserver, { recursive: true, mode: 0o700 });
  const logger = log.child({ component: 'apiserver' });
  const pki = ensurePki(paths.pki);
  const tokens = ensureTokens(paths.tokens);
  const store = opts.storeFactory ? opts.storeFactory(paths.db) : openSqliteStore(paths.db, { compactKeep: COMPACT_KEEP });
  const ctx: ApiContext = { store, registry: new TypeRegistry(), webhooks: { mutating: [], validating: [] }, apiservices: [], log: logger, rbac: new RbacCache(store), rootCaPem: pki.caPem };
  ctx.tokenSigner = ensureTokenSigner(paths.pki);
  ctx.uploadTokenKey = ensureUploadTokenKey(paths.pki);
  const boundTokens = serviceAccountTokenAuthenticator(ctx, ctx.tokenSigner);
  tokens.boundTokens = (token) => boundTokens(token);
  // a TokenReview naming audiences: file tokens serve any audience, a bound token only its own
  ctx.authenticateToken = (token, audiences) => (audiences?.length ? authenticateToken({ tokens: tokens.tokens }, token) ?? boundTokens(token, audiences) : authenticateToken(tokens, token));
  ctx.kubeletClientToken = tokenFor(tokens, KUBELET_CLIENT_USER);
  startConfigCaches(ctx);
  wireAggregation(store, paths.pki);
  await ensureSystemNamespaces(ctx);
  await reconcileBootstrapPolicy(ctx, { kubevirt: opts.installCRDs !== false });
  await publishExtensionApiserverAuthentication(ctx, pki.caPem);
  await publishUploadTokenKey(ctx, ctx.uploadTokenKey);
  await aggregateClusterRoles(ctx);
  const crdCount = opts.installCRDs === false ? 0 : await applyCRDFolder(ctx, opts.crdDir ?? DEFAULT_CRD_DIR);
  const host = opts.host ?? '127.0.0.1';
  let ready = false;
  let address = '';
  const metrics = createApiServerMetrics(() => store.commitStats());
  const server: Server = createServer({ cert: pki.certPem, key: pki.keyPem, keepAlive: true, requestTimeout: 120_000, keepAliveTimeout: 65_000, headersTimeout: 70_000 } as never,
    createRequestListener({ ctx, tokens, serverAddress: () => address, bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 10_000, isReady: () => ready, metrics }));
  const sockets = new Set<Socket>();
  server.on('secureConnection', (s: TLSSocket) => {
    s.setNoDelay(true);
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    metrics.connectionAccepted(s.isSessionReused());
  });
  server.on('upgrade', createUpgradeListener(ctx, tokens));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  address = `${host}:${port}`;
  const advertised = opts.advertiseAddress ? await advertise(server, opts.advertiseAddress, port, logger) : undefined;
  await ensureKubernetesService(ctx, { host: advertised ? opts.advertiseAddress! : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port });
  const stopControllers = startControllers(ctx, { nodeLeaseTimeoutMs: opts.nodeLeaseTimeoutMs, eventTTLMs: opts.eventTTLMs });
  ready = true;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, crds: crdCount }, 'apiserver listening');
  return {
    url, port, caPem: pki.caPem, adminToken: tokenFor(tokens, ADMIN_USER), viewerToken: tokenFor(tokens, VIEWER_USER), ctx,
    async close() {
      ready = false;
      stopControllers();
      if (advertised) {
        advertised.close();
        removeAdvertiseLink();
      }
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      store.close();
    },
  };
}

/** the advertise address's listener, or undefined (and a warning) when the host will not take the address */
async function advertise(server: Server, address: string, port: number, logger: typeof log): Promise<NetServer | undefined> {
  try {
    const tcp = await listenOnAdvertiseAddress(server, address, port);
    logger.info({ address, port }, 'apiserver listening on its advertise address');
    return tcp;
  } catch (err) {
    logger.warn({ address, err: err instanceof Error ? err.message : String(err) }, 'cannot listen on the advertise address; the kubernetes Service points at the main address');
    return undefined;
  }
}

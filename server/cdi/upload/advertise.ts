/**
 * Where the upload endpoint is: the Service `kubevirt/cdi-uploadproxy` and its Endpoints, as CDI's
 * uploadproxy is found (virtctl image-upload reads them when no --uploadproxy-url is given).
 * Retried until the API server takes them (the namespace may not exist yet).
 */
import type { CoreV1Api, CoreV1EndpointPort } from '@kubernetes/client-node';
import { isConflict, isNotFound, messageOf } from '../../kube/api-errors';
import { log } from '../../log';

export const UPLOAD_PROXY_NAMESPACE = 'kubevirt';
export const UPLOAD_PROXY_SERVICE = 'cdi-uploadproxy';

async function upsertOnce(core: CoreV1Api, host: string, port: number): Promise<void> {
  const namespace = UPLOAD_PROXY_NAMESPACE;
  const name = UPLOAD_PROXY_SERVICE;
  const ports: CoreV1EndpointPort[] = [{ name: 'http', port, protocol: 'TCP' }];
  try {
    await core.createNamespacedService({ namespace, body: { metadata: { name, namespace }, spec: { clusterIP: 'None', ports: [{ name: 'http', port, protocol: 'TCP' }] } } });
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
  const body = { metadata: { name, namespace }, subsets: [{ addresses: [{ ip: host }], ports }] };
  try {
    const cur = await core.readNamespacedEndpoints({ namespace, name });
    await core.replaceNamespacedEndpoints({ namespace, name, body: { ...body, metadata: { ...body.metadata, resourceVersion: cur.metadata?.resourceVersion } } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await core.createNamespacedEndpoints({ namespace, body });
  }
}

export async function advertiseUploadProxy(core: CoreV1Api, host: string, port: number, signal: AbortSignal): Promise<void> {
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      await upsertOnce(core, host, port);
      return;
    } catch (err) {
      log.child({ component: 'uploadproxy' }).warn({ err: messageOf(err), attempt }, 'could not advertise the upload endpoint; retrying');
      await new Promise((r) => setTimeout(r, Math.min(5000, 200 * 2 ** attempt)));
    }
  }
}

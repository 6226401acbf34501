/**
 * Registers the DataVolume admission webhook (datavolume-admission.ts) with the API server, by URL
 * at the upload endpoint's address; replaced when it is there already (the port may have changed).
 * Retried until the API server takes it.
 */
import { AdmissionregistrationV1Api, type KubeConfig, type V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { isNotFound, messageOf } from '../../kube/api-errors';
import { log } from '../../log';
import { dataVolumeWebhookConfiguration } from '../datavolume-admission';

async function upsertOnce(api: AdmissionregistrationV1Api, body: V1ValidatingWebhookConfiguration): Promise<void> {
  const name = body.metadata!.name!;
  try {
    const cur = await api.readValidatingWebhookConfiguration({ name });
    await api.replaceValidatingWebhookConfiguration({ name, body: { ...body, metadata: { ...body.metadata, resourceVersion: cur.metadata?.resourceVersion } } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await api.createValidatingWebhookConfiguration({ body });
  }
}

/** `baseUrl`: how the API server reaches the upload endpoint, e.g. http://127.0.0.1:8185 */
export async function registerDataVolumeWebhook(kc: KubeConfig, baseUrl: string, signal: AbortSignal): Promise<void> {
  const api = kc.makeApiClient(AdmissionregistrationV1Api);
  const body = dataVolumeWebhookConfiguration(baseUrl) as V1ValidatingWebhookConfiguration;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      await upsertOnce(api, body);
      return;
    } catch (err) {
      log.child({ component: 'cdi-webhook' }).warn({ err: messageOf(err), attempt }, 'could not register the DataVolume webhook; retrying');
      await new Promise((r) => setTimeout(r, Math.min(5000, 200 * 2 ** attempt)));
    }
  }
}

/** without CDI (`kv storage --no-datavolumes`): a webhook left by an earlier run must not refuse DataVolume creates nobody answers */
export async function unregisterDataVolumeWebhook(kc: KubeConfig): Promise<void> {
  const name = dataVolumeWebhookConfiguration('').metadata.name;
  try {
    await kc.makeApiClient(AdmissionregistrationV1Api).deleteValidatingWebhookConfiguration({ name });
  } catch (err) {
    if (!isNotFound(err)) log.child({ component: 'cdi-webhook' }).warn({ err: messageOf(err) }, 'could not remove the DataVolume webhook');
  }
}

import { KubeConfig, type KubernetesObject, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { KubeClients } from '../../kube/clients';
import type { EventRecorder } from '../../kube/events';
import { VMIController } from './vmi-controller';
import { newVMI, withPhase } from './testing-builders';

/** A controller whose caches are filled by hand and whose API calls are recorded. */
function setup() {
  const calls: string[] = [];
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  const clients = {
    kc,
    core: { createNamespacedPod: async ({ body }: { body: V1Pod }) => { calls.push('createPod'); return { ...body, metadata: { ...body.metadata, name: 'virt-launcher-testvmi-x' } }; } },
    vmis: {
      replaceStatus: async (_ns: string, _n: string, body: KubernetesObject) => { calls.push('replaceStatus'); return body; },
      jsonPatch: async () => { calls.push('patchMetadata'); return { metadata: { finalizers: ['kubevirt.io/foregroundDeleteVirtualMachine'], resourceVersion: '2' } }; },
    },
  };
  const recorder = { record: async () => undefined };
  const c = new VMIController({ clients: clients as unknown as KubeClients, recorder: recorder as unknown as EventRecorder });
  return { c, calls };
}

describe('VMIController.execute', () => {
  it('never creates a second launcher Pod while its cache lags its own create', async () => {
    const { c, calls } = setup();
    c.vmis.store.upsert(newVMI(withPhase('Pending')) as VirtualMachineInstance & KubernetesObject);
    await c.execute('default/testvmi');
    await c.execute('default/testvmi'); // the pod informer has not seen the pod yet
    expect(calls.filter((x) => x === 'createPod')).toHaveLength(1);
  });

  it('does nothing for a VMI that is gone', async () => {
    const { c, calls } = setup();
    await c.execute('default/missing');
    expect(calls).toEqual([]);
  });
});

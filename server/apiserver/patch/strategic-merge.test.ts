import { describe, expect, it } from 'vitest';
import { PatchError, applyStrategicMergePatch } from './index';

const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p',
    labels: { app: 'web', tier: 'fe' },
    finalizers: ['a.io/x'],
    ownerReferences: [{ uid: 'u1', name: 'rs', kind: 'ReplicaSet' }],
  },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1',
        env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }],
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
      { name: 'sidecar', image: 'busybox' },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
    tolerations: [{ key: 'k', operator: 'Exists' }],
  },
  status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }] },
});

/** the fields of a patched Pod (or Service) the checks read */
interface PatchedPod {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; ownerReferences: { uid: string }[] };
  spec: {
    containers: { name: string; image?: string; env?: unknown[]; ports?: unknown[]; volumeMounts: { mountPath: string }[] }[];
    volumes?: unknown[];
    tolerations?: unknown[];
    ports?: unknown[];
  };
  status: { conditions: unknown[] };
}
const patched = (obj: object, patch: unknown, kind = 'Pod') => applyStrategicMergePatch(obj, patch, kind) as unknown as PatchedPod;

const containerNames = (p: PatchedPod) => p.spec.containers.map((c) => c.name);

describe('applyStrategicMergePatch on a Pod', () => {
  it.each([
    ['merges a container by name', { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } },
      (p: PatchedPod) => expect(p.spec.containers[0]).toMatchObject({ name: 'web', image: 'nginx:2', env: [{ name: 'A' }, { name: 'B' }] })],
    ['appends a new container', { spec: { containers: [{ name: 'new', image: 'x' }] } },
      (p: PatchedPod) => expect(containerNames(p)).toEqual(['web', 'sidecar', 'new'])],
    ['deletes a container with $patch: delete', { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
      (p: PatchedPod) => expect(containerNames(p)).toEqual(['web'])],
    ['merges env by name', { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }] }] } },
      (p: PatchedPod) => expect(p.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }])],
    ['merges container ports by containerPort', { spec: { containers: [{ name: 'web', ports: [{ containerPort: 80, name: 'http' }] }] } },
      (p: PatchedPod) => expect(p.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }])],
    ['merges volumeMounts by mountPath', { spec: { containers: [{ name: 'web', volumeMounts: [{ mountPath: '/logs', name: 'logs' }] }] } },
      (p: PatchedPod) => expect(p.spec.containers[0].volumeMounts.map((m) => m.mountPath)).toEqual(['/data', '/logs'])],
    ['replaces tolerations (no merge key)', { spec: { tolerations: [{ key: 'other', operator: 'Exists' }] } },
      (p: PatchedPod) => expect(p.spec.tolerations).toEqual([{ key: 'other', operator: 'Exists' }])],
    ['merges conditions by type', { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      (p: PatchedPod) => expect(p.status.conditions).toEqual([{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }])],
    ['unions finalizers', { metadata: { finalizers: ['a.io/x', 'b.io/y'] } },
      (p: PatchedPod) => expect(p.metadata.finalizers).toEqual(['a.io/x', 'b.io/y'])],
    ['removes from a primitive list', { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/x'] } },
      (p: PatchedPod) => expect(p.metadata.finalizers).toEqual([])],
    ['merges ownerReferences by uid', { metadata: { ownerReferences: [{ uid: 'u2', name: 'other' }] } },
      (p: PatchedPod) => expect(p.metadata.ownerReferences.map((o) => o.uid)).toEqual(['u1', 'u2'])],
    ['null deletes a label', { metadata: { labels: { tier: null } } },
      (p: PatchedPod) => expect(p.metadata.labels).toEqual({ app: 'web' })],
    ['$patch: replace on a map replaces it', { metadata: { labels: { $patch: 'replace', only: 'this' } } },
      (p: PatchedPod) => expect(p.metadata.labels).toEqual({ only: 'this' })],
    ['$patch: delete on a map removes it', { metadata: { labels: { $patch: 'delete' } } },
      (p: PatchedPod) => expect(p.metadata.labels).toBeUndefined()],
    ['$patch: replace in a list replaces the list', { spec: { volumes: [{ name: 'x', emptyDir: {} }, { $patch: 'replace' }] } },
      (p: PatchedPod) => expect(p.spec.volumes).toEqual([{ name: 'x', emptyDir: {} }])],
    ['$setElementOrder reorders a merged list', { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }], containers: [{ name: 'web', image: 'nginx:3' }] } },
      (p: PatchedPod) => expect(p.spec.containers.map((c) => [c.name, c.image])).toEqual([['sidecar', 'busybox'], ['web', 'nginx:3']])],
    ['$retainKeys clears the keys it does not list', { spec: { $retainKeys: ['containers'], containers: [] } },
      (p: PatchedPod) => expect(Object.keys(p.spec)).toEqual(['containers'])],
  ])('%s', (_name, patch, check) => {
    check(patched(pod(), patch));
  });

  it('applies what kubectl apply sends to change an image and drop a container', () => {
    // kubectl apply after removing `sidecar` from the manifest and bumping the image
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      spec: {
        '$setElementOrder/containers': [{ name: 'web' }],
        containers: [{ image: 'nginx:9', name: 'web' }, { $patch: 'delete', name: 'sidecar' }],
      },
    };
    const out = patched(pod(), patch);
    expect(out.spec.containers).toHaveLength(1);
    expect(out.spec.containers[0]).toMatchObject({ name: 'web', image: 'nginx:9', ports: [{ containerPort: 80 }] });
    expect(out.metadata.annotations).toHaveProperty('kubectl.kubernetes.io/last-applied-configuration');
    expect(out.spec.volumes).toEqual(pod().spec.volumes);
  });

  it('merges Service ports by port', () => {
    const svc = { kind: 'Service', spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const out = patched(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, 'Service');
    expect(out.spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });

  it('does not modify its input', () => {
    const p = pod();
    applyStrategicMergePatch(p, { spec: { containers: [{ name: 'web', image: 'z' }] } }, 'Pod');
    expect(p.spec.containers[0].image).toBe('nginx:1');
  });
});

describe('applyStrategicMergePatch errors', () => {
  it.each([
    ['a custom resource', {}, 'VirtualMachine', 415],
    ['a list item without its merge key', { spec: { containers: [{ image: 'x' }] } }, 'Pod', 400],
    ['a patch that is not an object', [1], 'Pod', 400],
    ['an unknown $patch', { metadata: { $patch: 'explode' } }, 'Pod', 400],
    ['keys outside $retainKeys', { spec: { $retainKeys: ['volumes'], containers: [] } }, 'Pod', 422],
  ])('%s → %i', (_name, patch, kind, code) => {
    let err: PatchError | undefined;
    try {
      applyStrategicMergePatch(pod(), patch, kind);
    } catch (e) {
      err = e as PatchError;
    }
    expect(err).toBeInstanceOf(PatchError);
    expect(err?.code).toBe(code);
  });

  it('tells a custom resource client which patch types it may use', () => {
    expect(() => applyStrategicMergePatch({}, {}, 'VirtualMachine')).toThrow(/application\/merge-patch\+json/);
  });
});

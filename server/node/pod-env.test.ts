import { describe, expect, it } from 'vitest';
import type { V1Service } from '@kubernetes/client-node';
import { containerEnv, EnvConfigError, referencedObjects, serviceEnv, type EnvSources } from './pod-env';
import { makePod, withPodSpec } from './testing-builders';

const svc = (namespace: string, name: string, clusterIP: string, ports: { name?: string; port: number; protocol?: string }[]): V1Service => ({ metadata: { namespace, name, uid: `${namespace}-${name}` }, spec: { clusterIP, ports } });
const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443 }]);

function sources(extra: Partial<EnvSources> = {}): EnvSources {
  return {
    configMaps: new Map([['settings', { data: { mode: 'fast', 'bad key': 'x', LEVEL: '3' } }]]),
    secrets: new Map([['creds', { data: { token: Buffer.from('s3cret').toString('base64') } }], ['gone', undefined]]),
    services: [kubernetes, svc('apps', 'virt-api', '10.96.0.20', [{ name: 'https', port: 443 }, { name: 'metrics', port: 8443, protocol: 'TCP' }]), svc('other', 'elsewhere', '10.96.0.30', [{ port: 80 }])],
    kubernetesEndpoint: { host: '127.0.0.1', port: 6443 },
    podIP: '10.244.1.5',
    hostIP: '192.168.0.2',
    nodeAllocatable: { cpu: 4, memory: 8 * 2 ** 30 },
    ...extra,
  };
}

const pod = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
  makePod('web', withPodSpec({ nodeName: 'node-1', serviceAccountName: 'runner', containers: [{ name: 'c', image: 'kubevirt-ts:latest', ...container }], ...spec }), (p) => void (p.metadata!.namespace = 'apps'));

describe('a container\'s env as the kubelet builds it', () => {
  it('resolves every downward-API fieldRef a manifest uses', () => {
    const fields = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.podIP', 'status.hostIP'];
    const p = pod({ env: fields.map((f, i) => ({ name: `F${i}`, valueFrom: { fieldRef: { fieldPath: f } } })) });
    const env = containerEnv(p, p.spec!.containers[0], {}, sources());
    expect(fields.map((_, i) => env[`F${i}`])).toEqual(['web', 'apps', 'uid-web', 'node-1', 'runner', '10.244.1.5', '192.168.0.2']);
  });

  it('reads configMapKeyRef and secretKeyRef, and envFrom with a prefix (invalid names dropped)', () => {
    const p = pod({
      envFrom: [{ configMapRef: { name: 'settings' }, prefix: 'CFG_' }],
      env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } }, { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } }, { name: 'BOTH', value: '$(MODE)-$(CFG_LEVEL)' }],
    });
    const env = containerEnv(p, p.spec!.containers[0], {}, sources());
    expect(env).toMatchObject({ MODE: 'fast', TOKEN: 's3cret', CFG_mode: 'fast', CFG_LEVEL: '3', BOTH: 'fast-3' });
    expect(Object.keys(env).some((k) => k.includes(' '))).toBe(false);
  });

  it.each([
    [{ name: 'X', valueFrom: { secretKeyRef: { name: 'gone', key: 'a' } } }, 'secret "gone" not found'],
    [{ name: 'X', valueFrom: { secretKeyRef: { name: 'creds', key: 'nope' } } }, "couldn't find key nope in Secret apps/creds"],
    [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'absent', key: 'a' } } }, 'configmap "absent" not found'],
    [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'nope' } } }, "couldn't find key nope in ConfigMap apps/settings"],
  ])('refuses a missing reference with kube\'s message (%#)', (e, message) => {
    const p = pod({ env: [e] });
    expect(() => containerEnv(p, p.spec!.containers[0], {}, sources())).toThrow(new EnvConfigError(message));
  });

  it('skips a missing optional reference', () => {
    const p = pod({ env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'gone', key: 'a', optional: true } } }], envFrom: [{ configMapRef: { name: 'absent', optional: true } }] });
    expect(containerEnv(p, p.spec!.containers[0], {}, sources()).X).toBeUndefined();
  });

  it('gives resourceFieldRef the limit (else the node\'s allocatable), divided and rounded up', () => {
    const p = pod({
      resources: { limits: { memory: '300Mi' }, requests: { cpu: '250m' } },
      env: [
        { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
        { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
        { name: 'CPU_REQ_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
        { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu' } } },
      ],
    });
    expect(containerEnv(p, p.spec!.containers[0], {}, sources())).toMatchObject({ MEM_MI: '300', CPU_LIMIT: '4', CPU_REQ_M: '250', CPU_REQ: '1' });
  });

  it('injects the namespace\'s Service links and the kubernetes Service at its real endpoint', () => {
    const p = pod({});
    const env = containerEnv(p, p.spec!.containers[0], {}, sources());
    expect(env).toMatchObject({
      KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: '6443', KUBERNETES_SERVICE_PORT_HTTPS: '6443', KUBERNETES_PORT: 'tcp://127.0.0.1:6443',
      VIRT_API_SERVICE_HOST: '10.96.0.20', VIRT_API_SERVICE_PORT: '443', VIRT_API_SERVICE_PORT_METRICS: '8443',
      VIRT_API_PORT: 'tcp://10.96.0.20:443', VIRT_API_PORT_8443_TCP_ADDR: '10.96.0.20', VIRT_API_PORT_8443_TCP_PROTO: 'tcp',
    });
    expect(env.ELSEWHERE_SERVICE_HOST).toBeUndefined();
  });

  it('with enableServiceLinks false keeps only the kubernetes Service', () => {
    const p = pod({}, { enableServiceLinks: false });
    const env = containerEnv(p, p.spec!.containers[0], {}, sources());
    expect(env.KUBERNETES_SERVICE_HOST).toBe('127.0.0.1');
    expect(env.VIRT_API_SERVICE_HOST).toBeUndefined();
  });

  it('lets the Pod\'s own env win over Service links', () => {
    const p = pod({ env: [{ name: 'VIRT_API_SERVICE_HOST', value: 'mine' }] });
    expect(containerEnv(p, p.spec!.containers[0], {}, sources()).VIRT_API_SERVICE_HOST).toBe('mine');
  });

  it('headless Services give no variables', () => {
    expect(serviceEnv(svc('a', 'h', 'None', [{ port: 80 }]))).toEqual({});
  });

  it('lists the ConfigMaps and Secrets the Pod names in env, envFrom and volumes', () => {
    const p = pod({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm1', key: 'k' } } }], envFrom: [{ secretRef: { name: 's1' } }] }, {
      volumes: [{ name: 'v', secret: { secretName: 's2' } }, { name: 'p', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }],
    });
    const r = referencedObjects(p);
    expect([...r.configMaps].sort()).toEqual(['cm1', 'kube-root-ca.crt']);
    expect([...r.secrets].sort()).toEqual(['s1', 's2']);
  });
});

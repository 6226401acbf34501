/**
 * The process-kubelet runs the project's image as a container would, against a real API server:
 * the Pod's env (downward API, ConfigMap/Secret refs, the kubernetes Service), its volumes
 * bind-mounted at their mountPaths in a private mount namespace (the service-account token at
 * kube's path authenticates as the Pod's ServiceAccount), and kube's errors for what it cannot run.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AuthenticationV1Api, RbacAuthorizationV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../data-dir';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { criLogText } from '../kube/cri-log';
import { Kubelet } from './kubelet';
import { prepareContainerConfig } from './container-config';

const NODE = 'node-pr';
const STRICT = 'node-strict';
const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const MNT = `/run/kv-it-${process.pid}`;

const SCRIPT = `
echo "NAME=$MY_NAME NS=$MY_NS NODE=$MY_NODE IP=$MY_IP SA=$MY_SA MODE=$MODE SECRET=$SECRET MEM=$MEM"
echo "KSH=$KUBERNETES_SERVICE_HOST KSP=$KUBERNETES_SERVICE_PORT KV_POD_DIR=\${KV_POD_DIR:-unset}"
echo "token=$(cat ${SA_DIR}/token)"
echo "nsfile=$(cat ${SA_DIR}/namespace)"
echo "cfgfile=$(cat ${MNT}/config/mode) secretfile=$(cat ${MNT}/secret/token) one=$(cat ${MNT}/one-key)"
if touch ${MNT}/config/new 2>/dev/null; then echo config=rw; else echo config=ro; fi
echo written > ${MNT}/sub/out
echo "---ca"; cat ${SA_DIR}/ca.crt; echo "---end"
sleep 30
`;

describe('the process-kubelet runs kubevirt-ts:<tag> as a container', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let running: Promise<void>[] = [];

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    // the first node runs the test's shell script from the project image; the second is a normal kubelet
    const loose = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, nodesTotal: 2, stopPodsOnExit: true, allowHostCommands: true });
    const strict = new Kubelet({ kc: api.kc, nodeName: STRICT, dataDir: api.dataDir, nodesTotal: 2, stopPodsOnExit: true });
    running = [loose.run(stop.signal), strict.run(stop.signal)];
    await c.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
    await c.core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'creds' }, stringData: { token: 's3cret' } } });
    await c.core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'runner' } } });
  });
  afterAll(async () => {
    stop.abort();
    await Promise.all(running);
    await api?.stop();
    rmSync(MNT, { recursive: true, force: true });
  });

  const getPod = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
  const waiting = (name: string) => waitFor(async () => (await getPod(name))?.status?.containerStatuses?.[0]?.state?.waiting ?? undefined, 15_000, `${name} waiting`);

  it('gives the container the Pod\'s env and volumes at their mountPaths, and a token that is the ServiceAccount\'s', async () => {
    const pod: V1Pod = {
      metadata: { name: 'probe', namespace: 'default' },
      spec: {
        nodeName: NODE, restartPolicy: 'Never', serviceAccountName: 'runner',
        containers: [{
          name: 'main', image: 'kubevirt-ts:latest', command: ['sh', '-c', SCRIPT],
          resources: { limits: { memory: '64Mi' } },
          env: [
            { name: 'MY_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'MY_NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'MY_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            { name: 'MY_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'MY_SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
            { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } },
            { name: 'SECRET', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
            { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          ],
          volumeMounts: [
            { name: 'config', mountPath: `${MNT}/config`, readOnly: true },
            { name: 'secret', mountPath: `${MNT}/secret` },
            { name: 'config', mountPath: `${MNT}/one-key`, subPath: 'mode' },
            { name: 'host', mountPath: `${MNT}/sub`, subPathExpr: '$(MY_NAME)/work' },
          ],
        }],
        volumes: [
          { name: 'config', configMap: { name: 'settings' } }, { name: 'secret', secret: { secretName: 'creds' } },
          { name: 'host', hostPath: { path: join(api.dataDir, 'hp'), type: 'DirectoryOrCreate' } },
        ],
      },
    };
    await c.core.createNamespacedPod({ namespace: 'default', body: pod });
    const p = await waitFor(async () => { const x = await getPod('probe'); return x?.status?.phase === 'Running' ? x : undefined; }, 20_000, 'Running');
    const logFile = join(dataPaths(api.dataDir).node(NODE), 'pods', p.metadata!.uid!, 'main.log');
    const out = await waitFor(() => { const t = existsSync(logFile) ? criLogText(readFileSync(logFile)) : ''; return t.includes('---end') ? t : undefined; }, 20_000, 'probe output');
    const apiUrl = new URL(api.url);
    expect(out).toContain(`NAME=probe NS=default NODE=${NODE} IP=127.0.0.1 SA=runner MODE=fast SECRET=s3cret MEM=64`);
    expect(out).toContain(`KSH=${apiUrl.hostname} KSP=${apiUrl.port} KV_POD_DIR=unset`);
    expect(out).toContain('nsfile=default');
    expect(out).toContain('cfgfile=fast secretfile=s3cret one=fast');
    expect(out).toContain('config=ro');
    // hostPath + subPathExpr: the subdir is made on the host and written through the mount
    expect(readFileSync(join(api.dataDir, 'hp', 'probe', 'work', 'out'), 'utf8')).toBe('written\n');
    const rootCa = await c.core.readNamespacedConfigMap({ namespace: 'default', name: 'kube-root-ca.crt' });
    expect(out.split('---ca\n')[1].split('---end')[0].trim()).toBe(rootCa.data!['ca.crt'].trim());

    const token = /token=(\S+)/.exec(out)![1];
    const review = await api.kc.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { spec: { token } } });
    expect(review.status?.authenticated).toBe(true);
    expect(review.status?.user?.username).toBe('system:serviceaccount:default:runner');
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims['kubernetes.io'].pod).toEqual({ name: 'probe', uid: p.metadata!.uid });
    expect(claims.exp - claims.iat).toBe(3607);
    // the mounts live in the container's own mount namespace, not on the host
    expect(existsSync(`${MNT}/config/mode`)).toBe(false);
    // the refresh the kubelet does at 80% of the lifetime: a new token, switched in place in the same volume dir
    const volume = p.spec!.volumes!.find((v) => v.name.startsWith('kube-api-access-'))!.name;
    const tokenFile = join(logFile, '..', 'volumes', volume, 'token');
    expect(readFileSync(tokenFile, 'utf8')).toBe(token);
    const before = Date.now();
    const again = await prepareContainerConfig(c.core, p, join(logFile, '..'), { podIP: '127.0.0.1', hostIP: '127.0.0.1' });
    expect(again.tokenRefreshAt! - before).toBeGreaterThan(0.79 * 3607_000);
    expect(again.tokenRefreshAt! - before).toBeLessThan(0.81 * 3607_000);
    const fresh = readFileSync(tokenFile, 'utf8');
    expect(fresh).not.toBe(token);
    expect((await api.kc.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { spec: { token: fresh } } })).status?.user?.username).toBe('system:serviceaccount:default:runner');
    // bound to the Pod: it dies with it
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'probe', gracePeriodSeconds: 0 });
    await waitFor(async () => !(await getPod('probe')), 15_000, 'probe gone');
    const after = await api.kc.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { spec: { token } } });
    expect(after.status?.authenticated).toBeFalsy();
  });

  it('waits in CreateContainerConfigError while a referenced ConfigMap is missing, then starts once it exists', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: {
      metadata: { name: 'needs-cm' },
      spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'kubevirt-ts:latest', command: ['sh', '-c', 'echo "V=$V"; sleep 30'], env: [{ name: 'V', valueFrom: { configMapKeyRef: { name: 'later', key: 'v' } } }] }] },
    } });
    expect(await waiting('needs-cm')).toMatchObject({ reason: 'CreateContainerConfigError', message: 'configmap "later" not found' });
    await c.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'later' }, data: { v: 'here' } } });
    await waitFor(async () => (await getPod('needs-cm'))?.status?.phase === 'Running', 20_000, 'Running once the ConfigMap exists');
  });

  it('runs `kv handler` as the DaemonSet does: it finds the API server through in-cluster config and advertises itself on its Node', async () => {
    await c.core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'kubevirt-handler' } } });
    await api.kc.makeApiClient(RbacAuthorizationV1Api).createClusterRoleBinding({ body: {
      metadata: { name: 'it-handler' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'kubevirt-handler', namespace: 'default' }],
    } });
    await c.core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'virt-handler-token' }, stringData: { token: 'handler-secret' } } });
    await c.core.createNamespacedPod({ namespace: 'default', body: {
      metadata: { name: 'virt-handler' },
      spec: {
        nodeName: STRICT, serviceAccountName: 'kubevirt-handler',
        containers: [{
          name: 'virt-handler', image: 'kubevirt-ts:latest', command: ['kv', 'handler'],
          args: ['--node', '$(NODE_NAME)', '--data-dir', `${MNT}/data`, '--host', '$(POD_IP)', '--port', '0'],
          env: [
            { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'KV_HANDLER_TOKEN', valueFrom: { secretKeyRef: { name: 'virt-handler-token', key: 'token' } } },
            { name: 'HOME', value: '/nonexistent' }, // no ~/.kube/config to fall back on: in-cluster config or nothing
          ],
          volumeMounts: [{ name: 'host-data', mountPath: `${MNT}/data` }],
        }],
        volumes: [{ name: 'host-data', hostPath: { path: join(api.dataDir, 'handler-host'), type: 'DirectoryOrCreate' } }],
      },
    } });
    const node = await waitFor(async () => {
      const n = await c.core.readNode({ name: STRICT });
      return n.metadata?.annotations?.['kubevirt.io/handler-endpoint'] ? n : undefined;
    }, 60_000, 'handler endpoint on the Node');
    expect(node.metadata!.annotations!['kubevirt.io/handler-endpoint']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // the token came from the Secret through the env: no token file in the (host) data dir
    expect(existsSync(join(api.dataDir, 'handler-host', 'nodes', STRICT, 'handler.token'))).toBe(false);
  });

  it('refuses any other image with ErrImagePull and says what it runs', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { nodeName: STRICT, containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } });
    const w = await waiting('web');
    expect(w.reason).toBe('ErrImagePull');
    expect(w.message).toContain('image "nginx:1.27" not runnable by the embedded kubelet: it runs only kubevirt-ts:<tag> with a "kv" command');
  });
});

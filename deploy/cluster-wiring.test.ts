/**
 * The manifests agree with the code they run: `kv` subcommands and their flags, the identities
 * virt-api trusts, the webhooks and APIServices the embedded mode registers, the host directory
 * virt-handler and the launcher Pods share, and the environment the code reads.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { COMPONENT_USERS } from '../server/apiserver/tokens';
import { commonInstancetypes, commonPreferences } from '../lib/kubevirt/common-instancetypes';
import { webhookConfigurations } from '../server/virt-api/admission/webhook-configurations';
import { apiServices, VIRT_API_NAMESPACE, VIRT_API_SERVICE } from '../server/virt-api/register';
import { renderLauncherPod } from '../server/virt-controller/vmi/render-launcher-pod';
import { podDirOf } from '../server/virt-handler/pod-dir';
import { CLUSTER_DIR, clusterObjects, containersOf, findObject, podTemplateOf, readYamlFile, workloads, type Manifest } from './testing/manifests';

const ROOT = join(import.meta.dirname, '..');
const SERVER = join(ROOT, 'server');
const CA_INJECTION = { 'cert-manager.io/inject-ca-from': 'kubevirt/virt-api' };
/** Settings the manifests pass that server code does not read yet (docs/cluster-mode.md, "Code changes"). */
const PENDING_ENV: string[] = [];
/** the console's identity (deploy/cluster/service-accounts.yaml): no role binds it */
const CONSOLE_USER = `system:serviceaccount:${VIRT_API_NAMESPACE}:kubevirt-console`;
const WORKLOAD_COMPONENT: Record<string, keyof typeof COMPONENT_USERS> = { 'virt-controller': 'virt-controller', 'virt-handler': 'virt-handler', 'virt-api': 'virt-api' };

/** `kv` subcommand → the source file that parses its flags (from server/cli.ts). */
function kvCommands(): Map<string, string> {
  const cli = readFileSync(join(SERVER, 'cli.ts'), 'utf8');
  return new Map([...cli.matchAll(/^\s+'?([\w-]+)'?: \{ describe: .*?import\('\.\/([^']+)'\)/gm)].map((m) => [m[1], join(SERVER, `${m[2]}.ts`)]));
}

const isDeclaredFlag = (source: string, flag: string) => new RegExp(`['"]?${flag}['"]?\\s*:\\s*\\{\\s*type`).test(source);
const envOf = (c: V1Container, name: string) => c.env?.find((e) => e.name === name);
const argAfter = (c: V1Container, flag: string) => c.args?.[c.args.indexOf(flag) + 1];
const mainContainer = (name: string) => podTemplateOf(findObject(name === 'virt-handler' ? 'DaemonSet' : 'Deployment', name)).spec!.containers[0];

function serverSources(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return serverSources(join(dir, e.name));
    return e.name.endsWith('.ts') && !e.name.includes('.test.') ? [readFileSync(join(dir, e.name), 'utf8')] : [];
  });
}

describe('manifests ↔ kv commands', () => {
  const commands = kvCommands();
  const kvContainers = workloads().flatMap(containersOf).filter((c) => c.command?.[0] === 'kv');

  it.each(kvContainers.map((c) => [c.name, c] as const))('%s runs a kv subcommand with flags it declares', (_n, c) => {
    const source = commands.get(c.command![1]);
    expect(source, `kv ${c.command![1]}`).toBeDefined();
    const text = readFileSync(source!, 'utf8');
    for (const flag of (c.args ?? []).filter((a) => a.startsWith('--'))) expect(isDeclaredFlag(text, flag.slice(2)), `kv ${c.command![1]} ${flag}`).toBe(true);
  });

  it('every component and the launcher Pods run one image', () => {
    const images = new Set(workloads().flatMap(containersOf).map((c) => c.image));
    expect(images.size).toBe(1);
    expect(argAfter(mainContainer('virt-controller'), '--launcher-image')).toBe([...images][0]);
  });

  it('virt-handler is told its node through the downward API', () => {
    const c = mainContainer('virt-handler');
    const ref = /^\$\((\w+)\)$/.exec(argAfter(c, '--node') ?? '')?.[1];
    expect(envOf(c, ref ?? '')?.valueFrom?.fieldRef?.fieldPath).toBe('spec.nodeName');
    expect(envOf(c, /^\$\((\w+)\)$/.exec(argAfter(c, '--host') ?? '')?.[1] ?? '')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
  });

  it('workloads run as the identities virt-api trusts (COMPONENT_USERS)', () => {
    for (const [workload, component] of Object.entries(WORKLOAD_COMPONENT)) {
      const sa = podTemplateOf(findObject(workload === 'virt-handler' ? 'DaemonSet' : 'Deployment', workload)).spec!.serviceAccountName;
      expect(`system:serviceaccount:${VIRT_API_NAMESPACE}:${sa}`).toBe(COMPONENT_USERS[component]);
    }
    const accounts = clusterObjects().filter(({ obj }) => obj.kind === 'ServiceAccount').map(({ obj }) => `system:serviceaccount:${obj.metadata.namespace}:${obj.metadata.name}`);
    expect(accounts.sort()).toEqual([...Object.values(COMPONENT_USERS), CONSOLE_USER].sort());
  });

  it('the console runs as its own ServiceAccount, bound to no role (it acts only as the signed-in user)', () => {
    expect(`system:serviceaccount:${VIRT_API_NAMESPACE}:${podTemplateOf(findObject('Deployment', 'kubevirt-console')).spec!.serviceAccountName}`).toBe(CONSOLE_USER);
    const bindings = clusterObjects().filter(({ obj }) => obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding');
    expect(bindings.length).toBeGreaterThan(0);
    const subjects = bindings.flatMap(({ obj }) => ((obj as { subjects?: { kind: string; name: string; namespace?: string }[] }).subjects ?? [])
      .map((x) => `${x.kind}:${x.namespace}:${x.name}`));
    expect(subjects).toContain(`ServiceAccount:${VIRT_API_NAMESPACE}:kubevirt-apiserver`);
    expect(subjects.filter((x) => x.endsWith(':kubevirt-console'))).toEqual([]);
  });

  it('environment the manifests set is read by server code, except the listed pending changes', () => {
    const launcher = renderLauncherPod({ metadata: { name: 'v', namespace: 'ns', uid: 'u' }, spec: { domain: { devices: {} } } } as never, { launcherImage: 'x' });
    const names = new Set([...workloads().flatMap(containersOf), ...launcher.spec!.containers].flatMap((c) => (c.env ?? []).map((e) => e.name)).filter((n) => n.startsWith('KV_')));
    const sources = serverSources().join('\n');
    for (const n of names) expect(sources.includes(n), PENDING_ENV.includes(n) ? `${n} is read now: drop it from PENDING_ENV` : `${n} is read nowhere`).toBe(!PENDING_ENV.includes(n));
  });
});

describe('manifests ↔ virt-api registration', () => {
  it('webhooks.yaml is what webhookConfigurations() gives for the virt-api Service (UPDATE_GOLDEN=1 rewrites it)', () => {
    const [mutating, validating] = webhookConfigurations({ service: { namespace: VIRT_API_NAMESPACE, name: VIRT_API_SERVICE, port: 443 }, caBundle: '' });
    const annotate = (o: { metadata?: object }) => ({ ...o, metadata: { ...o.metadata, annotations: CA_INJECTION } });
    const header = '# Generated from server/virt-api/admission/webhook-configurations.ts by deploy/cluster-wiring.test.ts (UPDATE_GOLDEN=1).\n# caBundle: injected by cert-manager, or patched in by hand (docs/cluster-mode.md).\n';
    const want = header + [mutating, validating].map((o) => stringify(annotate(o))).join('---\n');
    const file = join(CLUSTER_DIR, 'webhooks.yaml');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, want);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(want);
  });

  it('common-instancetypes.yaml is what kv up creates (UPDATE_GOLDEN=1 rewrites it)', () => {
    const header = '# Generated from lib/kubevirt/common-instancetypes.ts by deploy/cluster-wiring.test.ts (UPDATE_GOLDEN=1).\n# The instance types and preferences kv up creates; a real cluster gets them from here.\n';
    const want = header + [...commonInstancetypes(), ...commonPreferences()].map((o) => stringify(o)).join('---\n');
    const file = join(CLUSTER_DIR, 'common-instancetypes.yaml');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, want);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(want);
  });

  it('the APIServices are the embedded mode\'s, pointed at the virt-api Service', () => {
    const shipped = clusterObjects().filter(({ obj }) => obj.kind === 'APIService').map(({ obj }) => ({ name: obj.metadata.name, spec: obj.spec }));
    const wanted = apiServices({ url: '', host: '', port: 443, caPem: '' }).map((s) => ({ name: s.metadata.name, spec: { ...s.spec, caBundle: undefined } }));
    expect(shipped).toEqual(wanted.map((w) => ({ ...w, spec: Object.fromEntries(Object.entries(w.spec).filter(([k]) => k !== 'caBundle')) })));
  });

  it.each([['virt-api', 'virt-api'], ['kubevirt-console', 'kubevirt-console']])('Service %s selects the Pods of Deployment %s on a port they expose', (name, deployment) => {
    const svc = findObject('Service', name) as Manifest & { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };
    const pod = podTemplateOf(findObject('Deployment', deployment));
    expect(Object.entries(svc.spec.selector).every(([k, v]) => pod.metadata!.labels![k] === v)).toBe(true);
    const ports = pod.spec!.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
    for (const p of svc.spec.ports) expect(ports).toContain(p.targetPort);
  });
});

describe('virt-handler and launcher Pods share the node directory', () => {
  it('the host path a launcher mounts as its pod dir is where virt-handler looks for it', () => {
    const handler = findObject('DaemonSet', 'virt-handler');
    const c = mainContainer('virt-handler');
    const dataDir = argAfter(c, '--data-dir')!;
    const mount = c.volumeMounts!.find((m) => m.mountPath === dataDir)!;
    const hostPath = podTemplateOf(handler).spec!.volumes!.find((v) => v.name === mount.name)!.hostPath!.path;
    expect(hostPath).toBe(dataDir); // same path inside and outside: the handler's paths are host paths
    const pod: V1Pod = renderLauncherPod({ metadata: { name: 'v', namespace: 'ns', uid: 'u' }, spec: { domain: { devices: {} } } } as never, { launcherImage: 'x' });
    const compute = pod.spec!.containers[0];
    const podDirMount = compute.volumeMounts!.find((m) => m.mountPath === envOf(compute, 'KV_POD_DIR')!.value)!;
    const base = pod.spec!.volumes!.find((v) => v.name === podDirMount.name)!.hostPath!.path;
    const sub = podDirMount.subPathExpr!.replace('$(KV_NODE_NAME)', 'node-a').replace('$(POD_UID)', 'pod-uid-1');
    expect(`${base}/${sub}`).toBe(podDirOf(hostPath, 'node-a', 'pod-uid-1'));
  });
});

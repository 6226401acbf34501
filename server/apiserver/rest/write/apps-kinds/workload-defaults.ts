/**
 * kube's apps/v1 defaulting (SetDefaults_Deployment, _ReplicaSet, _DaemonSet) and the PodSpec
 * defaults their templates get, so a stored template equals the Pod it becomes and the
 * pod-template-hash a controller computes from it is stable.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** the object at obj[key], made a plain object if it is anything else */
function child(obj: Obj, key: string): Obj {
  if (!isObj(obj[key])) obj[key] = {};
  return obj[key] as Obj;
}

/** SetDefaults_PodSpec and SetDefaults_Container, as far as a client notices them */
export function defaultPodSpec(spec: Obj): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    if (!isObj(c)) continue;
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    const image = typeof c.image === 'string' ? c.image : '';
    c.imagePullPolicy ??= image.endsWith(':latest') || !image.includes(':') ? 'Always' : 'IfNotPresent';
    for (const p of list(c.ports)) if (isObj(p)) p.protocol ??= 'TCP';
  }
}

/**
 * A template as kube stores it: Go writes a template's zero creationTimestamp as null and each
 * container's empty resources as {}; `kubectl rollout undo` sends them so, and a template must
 * compare equal to the one its ReplicaSet holds.
 */
function defaultTemplate(spec: Obj): void {
  const template = child(spec, 'template');
  child(template, 'metadata').creationTimestamp ??= null;
  const podSpec = child(template, 'spec');
  defaultPodSpec(podSpec);
  for (const c of [...list(podSpec.containers), ...list(podSpec.initContainers)]) if (isObj(c)) c.resources ??= {};
}

export function defaultDeployment(d: Obj): void {
  const s = child(d, 'spec');
  s.replicas ??= 1;
  const strategy = child(s, 'strategy');
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  s.revisionHistoryLimit ??= 10;
  s.progressDeadlineSeconds ??= 600;
  defaultTemplate(s);
}

export function defaultReplicaSet(rs: Obj): void {
  const s = child(rs, 'spec');
  s.replicas ??= 1;
  defaultTemplate(s);
}

export function defaultDaemonSet(ds: Obj): void {
  const s = child(ds, 'spec');
  const strategy = child(s, 'updateStrategy');
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  s.revisionHistoryLimit ??= 10;
  defaultTemplate(s);
}

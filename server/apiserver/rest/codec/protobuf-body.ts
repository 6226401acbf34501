import { badRequest, unsupportedMediaType } from '../status-error';

/**
 * Decoding of the Kubernetes protobuf envelope ("k8s\0" + runtime.Unknown) for the few kinds
 * kubectl's typed commands create with protobuf bodies (create configmap|secret|namespace|
 * serviceaccount|service|deployment, expose, token). Field numbers follow k8s.io/api's generated.proto.
 */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Fields = Map<number, (Buffer | number)[]>;

/** a body that ends inside a field, or a varint longer than 10 bytes: kube answers such bodies with a 400 */
const malformed = (what: string) => badRequest(`the body of the request was in an unknown format: invalid protobuf: ${what}`);
const MAX_VARINT_BYTES = 10;

function readVarint(buf: Buffer, pos: number): [number, number] {
  let result = 0;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (pos >= buf.length) throw malformed('unexpected end of data');
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) return [result, pos];
  }
  throw malformed('varint overflow');
}

/** the next `len` bytes, which must all be there */
function take(buf: Buffer, pos: number, len: number): [Buffer, number] {
  if (len > buf.length - pos) throw malformed('unexpected end of data');
  return [buf.subarray(pos, pos + len), pos + len];
}

/** one message's fields: length-delimited as Buffers, varints as numbers */
function readFields(buf: Buffer): Fields {
  const fields: Fields = new Map();
  let pos = 0;
  while (pos < buf.length) {
    let tag: number;
    [tag, pos] = readVarint(buf, pos);
    const [num, wire] = [Math.floor(tag / 8), tag & 7];
    let v: Buffer | number;
    if (wire === 0) [v, pos] = readVarint(buf, pos);
    else if (wire === 2) { let len: number; [len, pos] = readVarint(buf, pos); [v, pos] = take(buf, pos, len); }
    else if (wire === 1) [v, pos] = take(buf, pos, 8);
    else if (wire === 5) [v, pos] = take(buf, pos, 4);
    else throw malformed(`unsupported wire type ${wire}`);
    if (!fields.has(num)) fields.set(num, []);
    fields.get(num)!.push(v);
  }
  return fields;
}

const str = (f: Fields, n: number) => (f.get(n)?.[0] as Buffer | undefined)?.toString('utf8') || undefined;
const num = (f: Fields, n: number) => f.get(n)?.[0] as number | undefined;
const bool = (f: Fields, n: number) => (f.has(n) ? num(f, n) === 1 : undefined);
const strs = (f: Fields, n: number) => (f.get(n) as Buffer[] | undefined)?.map((b) => b.toString('utf8'));

function map(f: Fields, n: number, asBase64 = false): Record<string, string> | undefined {
  const entries = f.get(n) as Buffer[] | undefined;
  if (!entries) return undefined;
  return Object.fromEntries(entries.map((e) => {
    const kv = readFields(e);
    const v = kv.get(2)?.[0] as Buffer | undefined;
    return [str(kv, 1) ?? '', asBase64 ? (v ?? Buffer.alloc(0)).toString('base64') : (v?.toString('utf8') ?? '')];
  }));
}

function ownerReferences(f: Fields): unknown[] | undefined {
  return (f.get(13) as Buffer[] | undefined)?.map((b) => {
    const r = readFields(b);
    return prune({ apiVersion: str(r, 5), kind: str(r, 1), name: str(r, 3), uid: str(r, 4), controller: bool(r, 6), blockOwnerDeletion: bool(r, 7) });
  });
}

function prune<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function objectMeta(buf: Buffer | undefined): Record<string, unknown> {
  if (!buf) return {};
  const f = readFields(buf);
  return prune({
    name: str(f, 1), generateName: str(f, 2), namespace: str(f, 3), resourceVersion: str(f, 6) || undefined,
    labels: map(f, 11), annotations: map(f, 12), ownerReferences: ownerReferences(f), finalizers: strs(f, 14),
  });
}

/** int64 varints arrive as unsigned; gracePeriodSeconds is never near 2^63 */
const toSigned = (n: number) => (n > Number.MAX_SAFE_INTEGER ? n - 2 ** 64 : n);

function sub(f: Fields, n: number): Fields | undefined {
  const b = f.get(n)?.[0] as Buffer | undefined;
  return b ? readFields(b) : undefined;
}

const each = (f: Fields, n: number) => ((f.get(n) as Buffer[] | undefined) ?? []).map(readFields);

/** authorization.k8s.io SubjectAccessReviewSpec (also the self variant's subset) */
function accessReviewSpec(f: Fields): Record<string, unknown> | undefined {
  const spec = sub(f, 2);
  if (!spec) return undefined;
  const ra = sub(spec, 1);
  const nra = sub(spec, 2);
  return prune({
    resourceAttributes: ra && prune({ namespace: str(ra, 1), verb: str(ra, 2), group: str(ra, 3), version: str(ra, 4), resource: str(ra, 5), subresource: str(ra, 6), name: str(ra, 7) }),
    nonResourceAttributes: nra && prune({ path: str(nra, 1), verb: str(nra, 2) }),
    user: str(spec, 3), groups: strs(spec, 4), uid: str(spec, 6),
  });
}

/** intstr.IntOrString: type 0 = int, 1 = string */
function intOrString(f: Fields | undefined): number | string | undefined {
  if (!f) return undefined;
  return num(f, 1) === 1 ? str(f, 3) ?? '' : toSigned(num(f, 2) ?? 0);
}

function servicePort(b: Buffer): Record<string, unknown> {
  const p = readFields(b);
  return prune({ name: str(p, 1), protocol: str(p, 2), appProtocol: str(p, 6), port: num(p, 3), targetPort: intOrString(sub(p, 4)), nodePort: num(p, 5) });
}

/** core/v1 ServiceSpec, the fields `kubectl create service` and `kubectl expose` set */
function serviceSpec(f: Fields): Record<string, unknown> | undefined {
  const s = sub(f, 2);
  if (!s) return undefined;
  return prune({
    ports: (s.get(1) as Buffer[] | undefined)?.map(servicePort), selector: map(s, 2), clusterIP: str(s, 3), clusterIPs: strs(s, 18),
    type: str(s, 4), externalIPs: strs(s, 5), sessionAffinity: str(s, 7), loadBalancerIP: str(s, 8), externalName: str(s, 10),
    externalTrafficPolicy: str(s, 11), publishNotReadyAddresses: bool(s, 13), ipFamilies: strs(s, 19), ipFamilyPolicy: str(s, 17),
    internalTrafficPolicy: str(s, 22),
  });
}

/** rbac/v1 PolicyRule, Subject, RoleRef and AggregationRule (generated.proto field numbers) */
const policyRules = (f: Fields) => each(f, 2).map((r) => prune({ verbs: strs(r, 1) ?? [], apiGroups: strs(r, 2), resources: strs(r, 3), resourceNames: strs(r, 4), nonResourceURLs: strs(r, 5) }));
const subjects = (f: Fields) => (f.has(2) ? each(f, 2).map((s) => prune({ kind: str(s, 1), apiGroup: str(s, 2), name: str(s, 3), namespace: str(s, 4) })) : undefined);
const roleRef = (f: Fields) => { const r = sub(f, 3); return r && prune({ apiGroup: str(r, 1), kind: str(r, 2), name: str(r, 3) }); };
function aggregationRule(f: Fields): Record<string, unknown> | undefined {
  const a = sub(f, 3);
  if (!a) return undefined;
  return { clusterRoleSelectors: each(a, 1).map((s) => prune({ matchLabels: map(s, 1), matchExpressions: s.has(2) ? each(s, 2).map((e) => prune({ key: str(e, 1), operator: str(e, 2), values: strs(e, 3) })) : undefined })) };
}

/** meta/v1 LabelSelector: matchLabels 1, matchExpressions 2 (key 1, operator 2, values 3) */
function labelSelector(s: Fields | undefined): Record<string, unknown> | undefined {
  if (!s) return undefined;
  return prune({ matchLabels: map(s, 1), matchExpressions: s.has(2) ? each(s, 2).map((e) => prune({ key: str(e, 1), operator: str(e, 2), values: strs(e, 3) })) : undefined });
}

/** core/v1 Container, the fields `kubectl create deployment` sets: name 1, image 2, command 3, args 4, ports 6, env 7, resources 8 */
function container(c: Fields): Record<string, unknown> {
  return prune({
    name: str(c, 1), image: str(c, 2), command: strs(c, 3), args: strs(c, 4), workingDir: str(c, 5),
    // Go writes non-pointer zero values (hostPort 0) that its JSON leaves out
    ports: c.has(6) ? each(c, 6).map((p) => prune({ name: str(p, 1), hostPort: num(p, 2) || undefined, containerPort: num(p, 3), protocol: str(p, 4) })) : undefined,
    env: c.has(7) ? each(c, 7).map((e) => prune({ name: str(e, 1), value: str(e, 2) })) : undefined,
    resources: c.has(8) ? {} : undefined,
    terminationMessagePath: str(c, 13), imagePullPolicy: str(c, 14), terminationMessagePolicy: str(c, 20),
  });
}

/** apps/v1 DeploymentSpec: replicas 1, selector 2, template 3 (metadata 1, spec 2: containers 2, restartPolicy 3), strategy 4 */
function deploymentSpec(f: Fields): Record<string, unknown> | undefined {
  const s = sub(f, 2);
  if (!s) return undefined;
  const t = sub(s, 3);
  const podSpec = t && sub(t, 2);
  const strategy = sub(s, 4);
  const ru = strategy && sub(strategy, 2);
  return prune({
    replicas: num(s, 1), selector: labelSelector(sub(s, 2)),
    template: t && prune({ metadata: objectMeta(t.get(1)?.[0] as Buffer | undefined), spec: podSpec && prune({ containers: each(podSpec, 2).map(container), restartPolicy: str(podSpec, 3) }) }),
    strategy: strategy && prune({ type: str(strategy, 1), rollingUpdate: ru && prune({ maxUnavailable: intOrString(sub(ru, 1)), maxSurge: intOrString(sub(ru, 2)) }) }),
    minReadySeconds: num(s, 5) || undefined, revisionHistoryLimit: num(s, 6), paused: bool(s, 7) || undefined, progressDeadlineSeconds: num(s, 9),
  });
}

/** core/v1 ResourceQuotaSpec (`kubectl create quota`): hard 1 (map of resource.Quantity: string 1), scopes 2 */
function resourceQuotaSpec(f: Fields): Record<string, unknown> | undefined {
  const s = sub(f, 2);
  if (!s) return undefined;
  const hard = (s.get(1) as Buffer[] | undefined)?.map((e) => {
    const kv = readFields(e);
    const q = kv.get(2)?.[0] as Buffer | undefined;
    return [str(kv, 1) ?? '', q ? str(readFields(q), 1) ?? '0' : '0'];
  });
  return prune({ hard: hard && Object.fromEntries(hard), scopes: strs(s, 2) });
}

const DECODERS: Record<string, (f: Fields) => Record<string, unknown>> = {
  ResourceQuota: (f) => ({ spec: resourceQuotaSpec(f) }),
  Deployment: (f) => ({ spec: deploymentSpec(f) }),
  Role: (f) => ({ rules: policyRules(f) }),
  ClusterRole: (f) => ({ rules: policyRules(f), aggregationRule: aggregationRule(f) }),
  RoleBinding: (f) => ({ subjects: subjects(f), roleRef: roleRef(f) }),
  ClusterRoleBinding: (f) => ({ subjects: subjects(f), roleRef: roleRef(f) }),
  SelfSubjectRulesReview: (f) => { const s = sub(f, 2); return { spec: prune({ namespace: s && str(s, 1) }) }; },
  Service: (f) => ({ spec: serviceSpec(f) }),
  ConfigMap: (f) => ({ data: map(f, 2), binaryData: map(f, 3, true), immutable: bool(f, 4) }),
  Secret: (f) => ({ data: map(f, 2, true), type: str(f, 3), stringData: map(f, 4), immutable: bool(f, 5) }),
  Namespace: (f) => {
    const spec = f.get(2)?.[0] as Buffer | undefined;
    return { spec: spec ? prune({ finalizers: strs(readFields(spec), 1) }) : undefined };
  },
  ServiceAccount: (f) => ({ automountServiceAccountToken: bool(f, 4) }),
  SelfSubjectAccessReview: (f) => ({ spec: accessReviewSpec(f) }),
  SelfSubjectReview: () => ({}),
  TokenReview: (f) => {
    const spec = sub(f, 2);
    return { spec: spec && prune({ token: str(spec, 1), audiences: strs(spec, 2) }) };
  },
  Eviction: (f) => {
    const d = sub(f, 2);
    const grace = d && num(d, 1);
    return { deleteOptions: d && prune({ gracePeriodSeconds: grace === undefined ? undefined : toSigned(grace), propagationPolicy: str(d, 4), dryRun: strs(d, 5) }) };
  },
  Binding: (f) => {
    const t = sub(f, 2);
    return { target: t && prune({ kind: str(t, 1), namespace: str(t, 2), name: str(t, 3), uid: str(t, 4), apiVersion: str(t, 5) }) };
  },
  SubjectAccessReview: (f) => ({ spec: accessReviewSpec(f) }),
  /** authentication/v1 TokenRequestSpec: audiences 1, boundObjectRef 3 (kind 1, apiVersion 2, name 3, uid 4), expirationSeconds 4 */
  TokenRequest: (f) => {
    const spec = sub(f, 2);
    const ref = spec && sub(spec, 3);
    const exp = spec && num(spec, 4);
    return { spec: spec && prune({ audiences: strs(spec, 1), expirationSeconds: exp === undefined ? undefined : toSigned(exp), boundObjectRef: ref && prune({ kind: str(ref, 1), apiVersion: str(ref, 2), name: str(ref, 3), uid: str(ref, 4) }) }) };
  },
};

/** the JSON object inside a protobuf request body; 415 for kinds this server cannot decode */
export function decodeProtobufBody(buf: Buffer): Record<string, unknown> {
  if (!buf.subarray(0, 4).equals(MAGIC)) throw unsupportedMediaType(PROTOBUF, ['application/json', 'application/yaml']);
  const unknown = readFields(buf.subarray(4));
  const typeMeta = readFields((unknown.get(1)?.[0] as Buffer | undefined) ?? Buffer.alloc(0));
  const [apiVersion, kind] = [str(typeMeta, 1), str(typeMeta, 2)];
  const decode = kind ? DECODERS[kind] : undefined;
  if (!decode) throw unsupportedMediaType(PROTOBUF, ['application/json', 'application/yaml']);
  const raw = readFields((unknown.get(2)?.[0] as Buffer | undefined) ?? Buffer.alloc(0));
  return prune({ apiVersion, kind, metadata: objectMeta(raw.get(1)?.[0] as Buffer | undefined), ...decode(raw) });
}

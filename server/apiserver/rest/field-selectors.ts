import type { ServedType } from './resource-type';
import { badRequest } from './status-error';
import { matchFields, matchLabels, parseFieldSelector, parseLabelSelector } from './selectors-stub';

/** field labels kube-apiserver accepts per kind (metadata.name and metadata.namespace always) */
const FIELD_LABELS: Record<string, string[]> = {
  '/pods': ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  '/events': ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  'events.k8s.io/events': ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'reason', 'reportingController', 'type'],
  '/nodes': ['spec.unschedulable'],
  '/namespaces': ['status.phase'],
  '/secrets': ['type'],
};

const ALWAYS = ['metadata.name', 'metadata.namespace'];

export type ObjectMatcher = (obj: any) => boolean;

/** builds one predicate from labelSelector and fieldSelector; 400 on a bad selector */
export function buildMatcher(rt: ServedType, query: URLSearchParams): ObjectMatcher | undefined {
  const ls = query.get('labelSelector');
  const fs = query.get('fieldSelector');
  if (!ls && !fs) return undefined;
  let labels: ReturnType<typeof parseLabelSelector> | undefined;
  let fields: ReturnType<typeof parseFieldSelector> | undefined;
  try {
    if (ls) labels = parseLabelSelector(ls);
    if (fs) fields = parseFieldSelector(fs);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  const allowed = new Set([...ALWAYS, ...(FIELD_LABELS[`${rt.group}/${rt.resource}`] ?? [])]);
  for (const f of fields ?? []) {
    if (!allowed.has(f.field)) throw badRequest(`field label not supported: ${f.field}`);
  }
  return (obj) => (!labels || matchLabels(labels, obj.metadata?.labels)) && (!fields || matchFields(fields, obj));
}

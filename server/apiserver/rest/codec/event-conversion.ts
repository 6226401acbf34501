import type { ApiObject } from '../types/api-object';

/**
 * events.k8s.io/v1 Event ↔ core/v1 Event: one storage (core), two served shapes, as in
 * kube-apiserver. Fields that exist in both keep their names; the renamed ones map here.
 */
const RENAMES: [core: string, events: string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

function rename(obj: ApiObject, pairs: [string, string][]): ApiObject {
  const out = { ...obj };
  for (const [from, to] of pairs) {
    if (from in out) { out[to] = out[from]; delete out[from]; }
  }
  return out;
}

/** core/v1 Event (stored) → events.k8s.io/v1 Event */
export function eventFromCore(core: ApiObject): ApiObject {
  const ev = rename(core, RENAMES);
  ev.eventTime ??= null;
  return ev;
}

/** events.k8s.io/v1 Event → core/v1 Event (stored) */
export function eventToCore(ev: ApiObject): ApiObject {
  const core = rename(ev, RENAMES.map(([c, e]) => [e, c]));
  if (core.eventTime === null) delete core.eventTime;
  return core;
}

export const EVENTS_V1_SELECTABLE_FIELDS = ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion', 'regarding.resourceVersion', 'regarding.fieldPath', 'reportingController'];

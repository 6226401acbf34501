import { SelectorError } from './selector-error';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
}

/** Fields each built-in kind can be selected by, besides metadata.name and metadata.namespace. */
export const SELECTABLE_FIELDS: Record<string, string[]> = {
  Pod: [
    'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
    'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName',
  ],
  Node: ['spec.unschedulable'],
  Namespace: ['status.phase'],
  Secret: ['type'],
  Event: [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath',
    'reason', 'reportingComponent', 'source', 'type',
  ],
};

/** Selector field → object path, where they differ. */
const FIELD_PATHS: Record<string, string> = { source: 'source.component' };

/** Parses `a=b,c==d,e!=f` (backslash escapes `\,` `\=` `\\` in values), with kube's error messages. */
export function parseFieldSelector(s: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(s).sort()) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw new SelectorError(`invalid selector: '${s}'; can't understand '${part}'`);
    const value = unescapeValue(term.rhs);
    requirements.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value });
  }
  return { requirements };
}

/** The field a selector names that `kind` cannot be selected by, if any; kube answers 400 for it. */
export function findUnsupportedField(sel: FieldSelector, kind: string, extraFields: string[] = []): string | undefined {
  const allowed = new Set(['metadata.name', 'metadata.namespace', ...(SELECTABLE_FIELDS[kind] ?? []), ...extraFields]);
  return sel.requirements.find((r) => !allowed.has(r.field))?.field;
}

/** True when every requirement holds; a missing field reads as "" (so `spec.nodeName=` selects unbound pods). */
export function matchFields(sel: FieldSelector, obj: unknown): boolean {
  return sel.requirements.every((r) => {
    const actual = readField(obj, FIELD_PATHS[r.field] ?? r.field);
    return r.operator === '=' ? actual === r.value : actual !== r.value;
  });
}

function readField(obj: unknown, path: string): string {
  let cur = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  if (Array.isArray(cur)) return cur.map((v) => (typeof v === 'object' ? v?.ip ?? '' : String(v))).join(',');
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    if (escaped) escaped = false;
    else if (s[i] === '\\') escaped = true;
    else if (s[i] === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

function unescapeValue(v: string): string {
  if (!/[\\=,]/.test(v)) return v;
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '\\') {
      const next = v[++i];
      if (next !== '\\' && next !== ',' && next !== '=') {
        throw new SelectorError(`invalid field selector: invalid escape sequence: ${'\\' + (next ?? '')}`);
      }
      out += next;
    } else if (c === '=' || c === ',') {
      throw new SelectorError(`invalid field selector: unescaped character in value: ${c}`);
    } else out += c;
  }
  return out;
}

/** Stand-in for server/apiserver/selectors/ until it lands. */
type Req = { key: string; op: 'in' | 'notin' | 'exists' | '!' | '=' | '!='; values: string[] };
export type LabelSelector = Req[];
export type FieldSelector = { field: string; op: '=' | '!='; value: string }[];

export class SelectorError extends Error {}

function splitTop(s: string): string[] {
  const out: string[] = []; let depth = 0; let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { out.push(cur.trim()); cur = ''; } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function parseLabelSelector(s: string): LabelSelector {
  return splitTop(s).map((term): Req => {
    let m = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(term);
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((v) => v.trim()) };
    m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (m) return { key: m[1], op: m[2] === '!=' ? '!=' : '=', values: [m[3]] };
    if (/^![^=!\s]+$/.test(term)) return { key: term.slice(1), op: '!', values: [] };
    if (/^[^=!\s(),]+$/.test(term)) return { key: term, op: 'exists', values: [] };
    throw new SelectorError(`unable to parse requirement: ${term}`);
  });
}

export function matchLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return sel.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case '=': return has && l[r.key] === r.values[0];
      case '!=': return !has || l[r.key] !== r.values[0];
      case 'in': return has && r.values.includes(l[r.key]);
      case 'notin': return !has || !r.values.includes(l[r.key]);
      case 'exists': return has;
      case '!': return !has;
    }
  });
}

export function parseFieldSelector(s: string): FieldSelector {
  return splitTop(s).map((term) => {
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(term);
    if (!m) throw new SelectorError(`invalid selector: '${term}'; can't understand '${term}'`);
    return { field: m[1].trim(), op: m[2] === '!=' ? '!=' : '=', value: m[3].trim() };
  });
}

function fieldValue(obj: any, path: string): string {
  let cur = obj;
  for (const p of path.split('.')) cur = cur?.[p];
  return cur === undefined || cur === null ? '' : String(cur);
}

export function matchFields(sel: FieldSelector, obj: any): boolean {
  return sel.every((r) => (fieldValue(obj, r.field) === r.value) === (r.op === '='));
}

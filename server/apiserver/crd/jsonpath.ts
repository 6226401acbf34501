/**
 * The subset of Kubernetes JSONPath used by printer columns and selectable fields:
 * `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[1:3]`, `[*]`, `.*`, `..name` and filters such as
 * `[?(@.type=='Ready')]`, `[?(@.port>80)]`, `[?(@.name)]`. Surrounding `{}` are optional.
 * Evaluation returns every match, in document order.
 */

type Step =
  | { t: 'field'; name: string }
  | { t: 'recursive'; name: string | undefined }
  | { t: 'wildcard' }
  | { t: 'index'; i: number }
  | { t: 'slice'; start?: number; end?: number; step?: number }
  | { t: 'filter'; path: Step[]; op?: string; value?: unknown };

export class JSONPathError extends Error {}

const compiled = new Map<string, Step[]>();

/** All values `expr` selects from `obj`. */
export function evaluateJSONPath(expr: string, obj: unknown): unknown[] {
  let steps = compiled.get(expr);
  if (!steps) {
    steps = parsePath(stripBraces(expr.trim()));
    compiled.set(expr, steps);
  }
  return run(steps, [obj]);
}

const stripBraces = (s: string) => (s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1).trim() : s);

function run(steps: Step[], start: unknown[]): unknown[] {
  let cur = start;
  for (const step of steps) cur = cur.flatMap((v) => apply(step, v));
  return cur;
}

function apply(step: Step, v: unknown): unknown[] {
  switch (step.t) {
    case 'field': return isObject(v) && step.name in v ? [v[step.name]] : [];
    case 'wildcard': return Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
    case 'recursive': return descend(v).flatMap((d) => (step.name === undefined ? [d] : isObject(d) && step.name in d ? [d[step.name]] : []));
    case 'index': {
      if (!Array.isArray(v)) return [];
      const i = step.i < 0 ? v.length + step.i : step.i;
      return i >= 0 && i < v.length ? [v[i]] : [];
    }
    case 'slice': {
      if (!Array.isArray(v)) return [];
      const norm = (n: number | undefined, d: number) => (n === undefined ? d : n < 0 ? Math.max(0, v.length + n) : Math.min(n, v.length));
      const out: unknown[] = [];
      for (let i = norm(step.start, 0); i < norm(step.end, v.length); i += step.step ?? 1) out.push(v[i]);
      return out;
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
      return items.filter((item) => matchesFilter(step, item));
    }
  }
}

function matchesFilter(step: Extract<Step, { t: 'filter' }>, item: unknown): boolean {
  const found = run(step.path, [item]);
  if (step.op === undefined) return found.length > 0;
  return found.some((x) => compare(x, step.op!, step.value));
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==': return a === b;
    case '!=': return a !== b;
    case '<': return typeof a === typeof b && (a as number) < (b as number);
    case '>': return typeof a === typeof b && (a as number) > (b as number);
    case '<=': return typeof a === typeof b && (a as number) <= (b as number);
    case '>=': return typeof a === typeof b && (a as number) >= (b as number);
    default: return false;
  }
}

function descend(v: unknown): unknown[] {
  const out: unknown[] = [v];
  if (Array.isArray(v)) v.forEach((x) => out.push(...descend(x)));
  else if (isObject(v)) Object.values(v).forEach((x) => out.push(...descend(x)));
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Parses a path such as `.status.conditions[?(@.type=='Ready')].status` (leading `$` or `@` allowed). */
function parsePath(s: string): Step[] {
  const steps: Step[] = [];
  let i = s.startsWith('$') || s.startsWith('@') ? 1 : 0;
  while (i < s.length) {
    if (s.startsWith('..', i)) {
      const [name, next] = readName(s, i + 2);
      steps.push({ t: 'recursive', name: name === '*' || name === '' ? undefined : name });
      i = next;
    } else if (s[i] === '.') {
      const [name, next] = readName(s, i + 1);
      if (name === '') throw new JSONPathError(`invalid JSONPath ${JSON.stringify(s)}: empty field name at ${i}`);
      steps.push(name === '*' ? { t: 'wildcard' } : { t: 'field', name });
      i = next;
    } else if (s[i] === '[') {
      const close = findClose(s, i);
      steps.push(parseBracket(s.slice(i + 1, close).trim(), s));
      i = close + 1;
    } else if (i === 0) {
      const [name, next] = readName(s, i);
      steps.push({ t: 'field', name });
      i = next;
    } else {
      throw new JSONPathError(`invalid JSONPath ${JSON.stringify(s)}: unexpected ${JSON.stringify(s[i])} at ${i}`);
    }
  }
  return steps;
}

/** A field name up to the next unescaped `.` or `[`; `\.` escapes a dot. */
function readName(s: string, i: number): [string, number] {
  let name = '';
  while (i < s.length && s[i] !== '.' && s[i] !== '[') {
    if (s[i] === '\\' && s[i + 1] === '.') {
      name += '.';
      i += 2;
    } else name += s[i++];
  }
  return [name, i];
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new JSONPathError(`invalid JSONPath ${JSON.stringify(s)}: unclosed [`);
}

function parseBracket(inner: string, whole: string): Step {
  if (inner === '*') return { t: 'wildcard' };
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return { t: 'field', name: quoted[2] };
  if (/^-?\d+$/.test(inner)) return { t: 'index', i: Number(inner) };
  const slice = /^(-?\d*):(-?\d*)(?::(\d+))?$/.exec(inner);
  if (slice) {
    const num = (x: string | undefined) => (x === undefined || x === '' ? undefined : Number(x));
    return { t: 'slice', start: num(slice[1]), end: num(slice[2]), step: num(slice[3]) };
  }
  const filter = /^\?\((.*)\)$/.exec(inner);
  if (filter) return parseFilter(filter[1].trim(), whole);
  throw new JSONPathError(`invalid JSONPath ${JSON.stringify(whole)}: unsupported [${inner}]`);
}

function parseFilter(expr: string, whole: string): Step {
  const m = /^(@[^=!<>\s]*)\s*(==|!=|<=|>=|<|>)\s*(.+)$/.exec(expr);
  if (!m) {
    if (!expr.startsWith('@')) throw new JSONPathError(`invalid JSONPath ${JSON.stringify(whole)}: bad filter ${expr}`);
    return { t: 'filter', path: parsePath(expr) };
  }
  return { t: 'filter', path: parsePath(m[1]), op: m[2], value: parseLiteral(m[3].trim()) };
}

function parseLiteral(s: string): unknown {
  const q = /^(['"])(.*)\1$/.exec(s);
  if (q) return q[2];
  if (s === 'true' || s === 'false') return s === 'true';
  if (s === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  return s;
}

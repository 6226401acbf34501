/**
 * How deep a decoded body nests. Measured without recursion so a hostile body cannot overflow the
 * stack here; the limit keeps every later recursive walk (schema validation, cloning, encoding)
 * safe. kube-apiserver refuses bodies nested deeper than 10000 levels.
 */
export const MAX_NESTING_DEPTH = 10_000;

export function nestingDepth(value: unknown, stopAbove = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) max = depth;
    if (max > stopAbove) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** true when the value nests deeper than `limit` */
export function nestsTooDeep(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  return nestingDepth(value, limit) > limit;
}

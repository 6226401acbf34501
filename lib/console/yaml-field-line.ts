/** Where a field path (`spec.template.spec.domain.cpu.cores`) is in a YAML text: the line to mark. */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { parseFieldPath } from './api-status';

function childOf(node: unknown, key: string | number): { keyNode?: Node; value?: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key || String((p.key as { value?: unknown } | null)?.value) === String(key));
    return pair ? { keyNode: pair.key as Node, value: pair.value } : undefined;
  }
  if (isSeq(node) && typeof key === 'number') return node.items[key] !== undefined ? { value: node.items[key] } : undefined;
  return undefined;
}

/**
 * 1-based line of the field, or of its deepest parent present in the text; undefined when the
 * YAML does not parse or the path is empty.
 */
export function lineOfField(yamlText: string, field: string): number | undefined {
  const lc = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lc });
  if (doc.errors.length) return undefined;
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const seg of parseFieldPath(field)) {
    const next = childOf(node, seg);
    if (!next) break;
    const range = (next.keyNode ?? (next.value as Node | undefined))?.range;
    if (range) offset = range[0];
    node = next.value;
  }
  return offset === undefined ? undefined : lc.linePos(offset).line;
}

/** Path containment: the launcher only opens files inside the image store or its pod dir. */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ImageEntry } from './converter/converter-types';
import { invalid } from './converter/converter-error';

/** `p` (absolute, or relative to `dir`) resolved, if it stays inside `dir`; throws otherwise. */
export function resolveInside(dir: string, p: string, field: string): string {
  if (!isAbsolute(dir)) throw invalid(`${field}: base directory ${JSON.stringify(dir)} is not absolute`);
  const full = resolve(dir, p);
  const rel = relative(resolve(dir), full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw invalid(`${field}: path ${JSON.stringify(p)} escapes ${JSON.stringify(dir)}`);
  }
  return full;
}

/** An image entry's file, checked to be inside the entry's directory. */
export function imageFile(entry: ImageEntry, p: string, field: string): string {
  return resolveInside(entry.dir, p, field);
}

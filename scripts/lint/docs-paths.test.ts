/**
 * Docs that claim only what is true, the part a test can check: every repository path the README
 * and docs/ name (in backticks or as a link: server/…, e2e/…, bench/…, deploy/…) exists — a
 * module may be named without its extension — and every `kv <command>` they show is a command
 * the CLI has. A renamed test or file then fails here instead of leaving a doc that points nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPO_PATH = /^(server|e2e|bench|scripts|deploy|docs|lib|components|app|examples|bin)\/[\w./-]+$/;

function docs(): string[] {
  const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  return ['README.md', ...walk('docs')];
}

function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`|\]\(([^)\s]+)\)/g)) {
    const p = (m[1] ?? m[2]).split('#')[0].replace(/[.,:;]+$/, '');
    if (REPO_PATH.test(p) && !p.includes('*')) out.push(p);
  }
  return out;
}

const exists = (doc: string, p: string) => ['', '.ts', '.tsx', '.mjs'].some((ext) => existsSync(join(ROOT, p + ext)) || existsSync(join(ROOT, dirname(doc), p + ext)));

describe('the docs name what exists', () => {
  it.each(docs())('%s: every repository path it names exists', (doc) => {
    const missing = namedPaths(readFileSync(join(ROOT, doc), 'utf8')).filter((p) => !exists(doc, p));
    expect(missing).toEqual([]);
  });

  it('every `kv <command>` in the docs is a command of the CLI', () => {
    const cli = readFileSync(join(ROOT, 'server', 'cli.ts'), 'utf8');
    const known = new Set([...cli.matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{/gm)].map((m) => m[1]));
    expect(known.size).toBeGreaterThan(10);
    const named = new Set(docs().flatMap((d) => [...readFileSync(join(ROOT, d), 'utf8').matchAll(/`kv ([a-z][a-z-]*)/g)].map((m) => m[1])));
    expect([...named].filter((c) => !known.has(c))).toEqual([]);
  });
});

/**
 * Docs that claim only what is true, the part a test can check without running anything. In the
 * README and docs/:
 * - every repository path named in backticks or as a link (server/…, e2e/…, bench/…, deploy/…)
 *   exists — a module may be named without its extension;
 * - every `kv <command>` is a command of the CLI (server/cli.ts), and every flag shown with it is
 *   one its `kv <command> --help` prints (or, for a command that prints its own help, one its
 *   module reads);
 * - every `virtctl <command>` is one of virtctl's commands (server/virtctl/main.ts);
 * - every `KV_*` environment variable is read somewhere in the code;
 * - every `npm run <script>` / `npm test` is a script of package.json.
 * A renamed file, command, flag or variable then fails here instead of leaving a doc that points nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPO_PATH = /^(server|e2e|bench|scripts|deploy|docs|lib|components|app|examples|bin|types)\/[\w./-]+$/;
const CODE_DIRS = ['server', 'lib', 'bin', 'e2e', 'bench', 'scripts', 'components', 'app', 'deploy', 'types'];
const CODE_FILE = /\.(ts|tsx|mjs|js|sh|yaml|json)$/;

const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : walk(join(dir, e.name), keep);
    return keep(e.name) ? [join(dir, e.name)] : [];
  });
}

const DOCS = ['README.md', ...walk('docs', (n) => n.endsWith('.md'))];
let codeFiles: string[] | undefined;
const CODE_FILES = () => (codeFiles ??= CODE_DIRS.flatMap((d) => walk(d, () => true)));
const docText = new Map(DOCS.map((d) => [d, read(d)]));

/** the code spans of a doc: inline `…` and the lines of fenced blocks */
export function codeSpans(text: string): string[] {
  const out: string[] = [];
  const fenced = text.replace(/```[^\n]*\n([\s\S]*?)```/g, (_, body: string) => { out.push(...body.split('\n')); return ''; });
  for (const m of fenced.matchAll(/`([^`\n]+)`/g)) out.push(m[1]);
  return out;
}

export function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`|\]\(([^)\s]+)\)/g)) {
    const p = (m[1] ?? m[2]).split('#')[0].replace(/[.,:;]+$/, '');
    if (REPO_PATH.test(p) && !p.includes('*')) out.push(p);
  }
  return out;
}

/** paths written in plain text (not in backticks or links) that name a file by its extension or a folder by its slash */
export function plainPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s(])((?:server|e2e|bench|scripts|deploy|docs|lib|components|app|examples|bin|types)\/[\w./-]+)/gm)) {
    const p = m[1].replace(/[.,:;)]+$/, '');
    if (/\.(ts|tsx|mjs|md|sh|yaml|json)$|\/$/.test(p)) out.push(p);
  }
  return out;
}

/** a file named in backticks by its name or a tail of its path (`latest-index.ts`, `rest/read/raw-event-line.ts`) */
export function namedFiles(text: string): string[] {
  return [...text.matchAll(/`([\w./-]+\.(?:ts|tsx|mjs|sh))`/g)].map((m) => m[1]).filter((p) => !REPO_PATH.test(p));
}
const EXAMPLE_NAMES = new Set(['x.ts', 'x.test.ts']);

const exists = (doc: string, p: string) => ['', '.ts', '.tsx', '.mjs'].some((ext) => existsSync(join(ROOT, p + ext)) || existsSync(join(ROOT, dirname(doc), p + ext)));

/** `kv <command> …` in a code span, also as `node bin/kv.mjs <command>`: the command and the flags shown */
export function kvInvocations(span: string): { command: string; flags: string[] }[] {
  const out: { command: string; flags: string[] }[] = [];
  // each piece starts at one `kv`, so a second one on the line (`kv console … kv up --no-console`) owns its flags
  for (const piece of span.split(/(?<![\w/.-])(?=(?:kv|bin\/kv\.mjs)\s+[a-z])/)) {
    const m = /^(?:kv|bin\/kv\.mjs)\s+([a-z][a-z-]*)([^;|&#`]*)/.exec(piece);
    if (!m) continue;
    const command = m[1];
    // a `kv control-plane` line carries other commands' flags; `--and` splits them
    const flags = command === 'control-plane' ? [] : [...m[2].matchAll(/(?:^|[\s[(])(--[a-z][a-z-]*)/g)].map((f) => f[1]);
    out.push({ command, flags });
  }
  return out;
}

/** server/cli.ts's command table: each command's text (describe + usage) and the module it loads */
export function cliCommands(cli: string): Map<string, { text: string; hasUsage: boolean; module?: string }> {
  const common = /^const COMMON = '([^']*)'/m.exec(cli)?.[1] ?? '';
  cli = cli.replaceAll('${COMMON}', common);
  const entries = [...cli.matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{/gm)];
  const out = new Map<string, { text: string; hasUsage: boolean; module?: string }>();
  entries.forEach((m, i) => {
    const text = cli.slice(m.index, entries[i + 1]?.index ?? cli.indexOf('\n};', m.index));
    const mod = /import\('\.\/([\w/-]+)'\)/.exec(text)?.[1];
    out.set(m[1], { text, hasUsage: /\busage: /.test(text), module: mod && `server/${mod}.ts` });
  });
  return out;
}

describe('the docs name what exists', () => {
  it.each(DOCS)('%s: every repository path it names exists', (doc) => {
    const missing = namedPaths(docText.get(doc)!).filter((p) => !exists(doc, p));
    expect(missing).toEqual([]);
  });

  it.each(DOCS)('%s: every repository path it names in plain text exists', (doc) => {
    expect(plainPaths(docText.get(doc)!).filter((p) => !exists(doc, p))).toEqual([]);
  });

  it('every file the docs name by its name alone is a file of the repository (ADRs may name removed ones)', () => {
    const rootFiles = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    const files = [...rootFiles, ...CODE_FILES()].map((f) => `/${f}`);
    const wrong = DOCS.filter((d) => !d.startsWith('docs/adr/')).flatMap((doc) => namedFiles(docText.get(doc)!)
      .filter((n) => !EXAMPLE_NAMES.has(n) && !files.some((f) => f.endsWith(`/${n}`))).map((n) => `${doc}: ${n}`));
    expect(wrong).toEqual([]);
  });

  it('every `kv <command>` in the docs is a command of the CLI, with flags its help shows', () => {
    const commands = cliCommands(read('server/cli.ts'));
    expect(commands.size).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const [doc, text] of docText) {
      for (const { command, flags } of codeSpans(text).flatMap(kvInvocations)) {
        const c = commands.get(command);
        if (!c) { wrong.push(`${doc}: kv ${command}`); continue; }
        const source = c.hasUsage ? c.text : `${c.text}${c.module && existsSync(join(ROOT, c.module)) ? read(c.module) : ''}`;
        for (const f of flags) if (!source.includes(f) && !(c.module && !c.hasUsage && source.includes(`'${f.slice(2)}'`))) wrong.push(`${doc}: kv ${command} ${f}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every `virtctl <command>` in the docs is a virtctl command', () => {
    const known = new Set([...read('server/virtctl/main.ts').matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{ usage/gm)].map((m) => m[1]));
    expect(known.size).toBeGreaterThan(10);
    const wrong = [...docText].flatMap(([doc, text]) => codeSpans(text)
      .flatMap((s) => [...s.matchAll(/(?:^|[\s(;|&$/])virtctl(?:\.mjs)?\s+([a-z][a-z-]*)/g)].map((m) => m[1]))
      .filter((c) => !known.has(c) && c !== 'help').map((c) => `${doc}: virtctl ${c}`));
    expect(wrong).toEqual([]);
  });

  it('every KV_* environment variable in the docs is read by the code', () => {
    const code = CODE_FILES().filter((f) => CODE_FILE.test(f)).map(read).join('\n');
    const wrong = [...docText].flatMap(([doc, text]) => [...new Set(text.match(/\bKV_[A-Z0-9_]+\b/g) ?? [])]
      .filter((v) => !new RegExp(`\\b${v}\\b`).test(code)).map((v) => `${doc}: ${v}`));
    expect(wrong).toEqual([]);
  });

  it('every KV_* environment variable the code reads is named in the docs', () => {
    const allDocs = [...docText.values()].join('\n');
    const readVars = new Set(CODE_FILES().filter((f) => CODE_FILE.test(f) && !/\.test\.tsx?$/.test(f))
      .flatMap((f) => [...read(f).matchAll(/(?:env\.|env\[|['"])(KV_[A-Z0-9_]+)\b/g)].map((m) => m[1])));
    expect(readVars.size).toBeGreaterThan(20);
    expect([...readVars].filter((v) => !new RegExp(`\\b${v}\\b`).test(allDocs))).toEqual([]);
  });

  it('every `npm run <script>` in the docs is a script of package.json', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const wrong = [...docText].flatMap(([doc, text]) => [...text.matchAll(/\bnpm (?:run ([\w:-]+)|(test|start))\b/g)]
      .map((m) => m[1] ?? m[2]).filter((s) => !(s in scripts)).map((s) => `${doc}: npm run ${s}`));
    expect(wrong).toEqual([]);
  });
});

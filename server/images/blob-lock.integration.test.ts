import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'blob-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('eight processes that want one blob at the same instant download it once', async () => {
  const file = join(dir, 'blob');
  const counter = join(dir, 'downloads');
  const lockModule = fileURLToPath(new URL('./blob-lock.ts', import.meta.url));
  // Each process spins until a shared instant, so all of them race for the lock together.
  const script = [
    `const { downloadOnce } = await import(${JSON.stringify(lockModule)});`,
    `const fs = await import('node:fs');`,
    `const at = Number(process.argv[1]); while (Date.now() < at) {}`,
    `await downloadOnce(${JSON.stringify(file)}, async () => {`,
    `  fs.appendFileSync(${JSON.stringify(counter)}, 'x');`,
    `  await new Promise((r) => setTimeout(r, 300));`,
    `  fs.writeFileSync(${JSON.stringify(file)}, 'blob');`,
    `});`,
  ].join('\n');
  const at = String(Date.now() + 2000);
  await Promise.all(Array.from({ length: 8 }, () => promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, at])));
  expect(readFileSync(counter, 'utf8')).toBe('x');
  expect(readdirSync(dir).sort()).toEqual(['blob', 'downloads']);
}, 30_000);

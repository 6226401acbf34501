#!/usr/bin/env node
// The `any` ratchet (part of `npm run lint`): counts explicit `any`s per file with ESLint's
// no-explicit-any and fails when a file has more than scripts/lint/any-budget.json allows (a file
// not listed allows none), so no new `any` lands while the old ones are typed away.
// `--update` rewrites the budget to today's counts (only ever lower it in a commit).
import { ESLint } from 'eslint';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const budgetFile = fileURLToPath(new URL('./any-budget.json', import.meta.url));
const RULE = '@typescript-eslint/no-explicit-any';

export async function countAnys(cwd = root) {
  const eslint = new ESLint({ cwd, overrideConfig: { rules: { [RULE]: 'error' } } });
  const results = await eslint.lintFiles(['.']);
  const counts = {};
  for (const r of results) {
    const n = r.messages.filter((m) => m.ruleId === RULE).length;
    if (n) counts[relative(cwd, r.filePath)] = n;
  }
  return counts;
}

/** files over budget: `[file, count, allowed]` */
export function overBudget(counts, budget) {
  return Object.entries(counts).filter(([f, n]) => n > (budget[f] ?? 0)).map(([f, n]) => [f, n, budget[f] ?? 0]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const counts = await countAnys();
  if (process.argv.includes('--update')) {
    writeFileSync(budgetFile, JSON.stringify(Object.fromEntries(Object.entries(counts).sort()), null, 1) + '\n');
    process.stdout.write(`any budget: ${Object.values(counts).reduce((a, b) => a + b, 0)} in ${Object.keys(counts).length} files\n`);
  } else {
    const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
    const over = overBudget(counts, budget);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const allowed = Object.values(budget).reduce((a, b) => a + b, 0);
    for (const [f, n, b] of over) process.stderr.write(`${f}: ${n} explicit any (budget ${b}); type it (unknown + narrowing, or a real interface)\n`);
    process.stdout.write(`any budget: ${total} of ${allowed} allowed\n`);
    process.exit(over.length ? 1 : 0);
  }
}

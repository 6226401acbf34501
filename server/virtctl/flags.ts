/**
 * Flag parsing for one virtctl command (node:util parseArgs): the command's own flags plus the
 * global ones kubectl users type anywhere on the line (-n/--namespace, --kubeconfig, --context).
 * Cobra's `--flag=value` and `--flag value` forms both work; an unknown flag is a usage error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { GlobalFlags } from './client-config';
import { UsageError } from './virtctl-error';

type Options = NonNullable<ParseArgsConfig['options']>;

const GLOBAL_OPTIONS: Options = {
  namespace: { type: 'string', short: 'n' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
};

export interface Parsed {
  global: GlobalFlags;
  values: Record<string, string | boolean | undefined>;
  /** flags given more than once (declared `multiple: true`) */
  lists: Record<string, string[]>;
  positionals: string[];
}

/** cobra takes `--flag=true` and `--flag=false` for a boolean flag (ssh ProxyCommands use `--stdio=true`) */
function normalizeBooleans(argv: string[], options: Options): string[] {
  return argv.flatMap((a) => {
    const m = /^--([^=]+)=(true|false)$/.exec(a);
    if (!m || options[m[1]]?.type !== 'boolean') return [a];
    return m[2] === 'true' ? [`--${m[1]}`] : [];
  });
}

export function parseFlags(argv: string[], options: Options): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: normalizeBooleans(argv, options), options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/^TypeError \[[A-Z_]+\]: /, '') : String(err));
  }
  const values: Record<string, string | boolean | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(parsed.values)) {
    if (Array.isArray(v)) lists[k] = v.filter((x): x is string => typeof x === 'string');
    else values[k] = v;
  }
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  return { global: { namespace: str('namespace'), kubeconfig: str('kubeconfig'), context: str('context') }, values, lists, positionals: parsed.positionals };
}

/** Exactly `n` positional arguments, as cobra.ExactArgs(n). */
export function exactArgs(positionals: string[], n: number): string[] {
  if (positionals.length !== n) throw new UsageError(`accepts ${n} arg(s), received ${positionals.length}`);
  return positionals;
}

/** An integer flag value (cobra's Int64Var): anything else is a usage error naming the flag. */
export function intFlag(values: Parsed['values'], name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`invalid argument "${String(v)}" for "--${name}" flag: strconv.ParseInt: parsing "${String(v)}": invalid syntax`);
  return Number(v);
}

/** `key=value,key2=value2` (cobra's StringToStringVar). */
export function mapFlag(values: Parsed['values'], name: string): Record<string, string> | undefined {
  const v = values[name];
  if (typeof v !== 'string') return undefined;
  const out: Record<string, string> = {};
  for (const pair of v.split(',').filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid argument "${v}" for "--${name}" flag: ${pair} must be formatted as key=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

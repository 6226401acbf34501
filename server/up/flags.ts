import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { defaultDataDir } from '../data-dir';
import { parseDurationFlag } from '../duration-flag';

export interface UpOptions {
  dataDir: string;
  nodes: number;
  apiPort: number;
  consolePort: number;
  /** 0: kv up picks a free one */
  virtApiPort: number;
  console: boolean;
  host: string;
  /** how long the printed one-time sign-in link works, in seconds */
  loginLinkTtl: number;
  /** one process per component instead of one `kv control-plane` for the controllers and nodes */
  separateProcesses: boolean;
  /** a bare Kubernetes: no KubeVirt component, CRD, console, instance types or demo image */
  bare: boolean;
}

/** Parses `kv up` flags; bad input is a clear error, not a stack trace. */
export function parseUpFlags(argv: string[]): UpOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      nodes: { type: 'string', default: '2' },
      'api-port': { type: 'string', default: '6443' },
      'console-port': { type: 'string', default: '3000' },
      'virt-api-port': { type: 'string', default: '0' },
      'no-console': { type: 'boolean', default: false },
      host: { type: 'string', default: '127.0.0.1' },
      'login-link-ttl': { type: 'string', default: '5m' },
      'separate-processes': { type: 'boolean', default: false },
      bare: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const nodes = toInt('--nodes', values.nodes!, 1, 16);
  return {
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    nodes,
    apiPort: toInt('--api-port', values['api-port']!, 0, 65535),
    consolePort: toInt('--console-port', values['console-port']!, 0, 65535),
    virtApiPort: toInt('--virt-api-port', values['virt-api-port']!, 0, 65535),
    console: !values['no-console'] && !values.bare,
    host: values.host!,
    separateProcesses: values['separate-processes']!,
    loginLinkTtl: parseDurationFlag('--login-link-ttl', values['login-link-ttl']!, { min: 10, max: 24 * 3600 }),
    bare: values.bare!,
  };
}

function toInt(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

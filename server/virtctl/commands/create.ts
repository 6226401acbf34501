/** `virtctl create vm [flags]`: prints a VirtualMachine manifest (YAML) to pipe into `kubectl apply -f -`. */
import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { intFlag, parseFlags } from '../flags';
import { UsageError } from '../virtctl-error';
import { renderCreateVM } from './create-vm-manifest';
import type { Output } from '../output';

const RANDOM_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const randomSuffix = () => [...randomBytes(5)].map((b) => RANDOM_ALPHABET[b % RANDOM_ALPHABET.length]).join('');

export async function createCommand(argv: string[], out: Output): Promise<void> {
  const [what, ...rest] = argv;
  if (what !== 'vm') throw new UsageError(what ? `unknown resource "${what}" (virtctl create supports: vm)` : 'virtctl create needs a resource: vm');
  const { global, values, lists, positionals } = parseFlags(rest, {
    name: { type: 'string' }, 'run-strategy': { type: 'string' }, 'termination-grace-period': { type: 'string' }, memory: { type: 'string' },
    instancetype: { type: 'string' }, preference: { type: 'string' },
    'volume-containerdisk': { type: 'string', multiple: true }, 'volume-pvc': { type: 'string', multiple: true },
    user: { type: 'string' }, 'ssh-key': { type: 'string', multiple: true }, 'cloud-init-user-data': { type: 'string' },
  });
  if (positionals.length) throw new UsageError(`unknown command "${positionals[0]}" for "virtctl create vm"`);
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const vm = renderCreateVM({
    name: str('name') ?? `vm-${randomSuffix()}`, namespace: global.namespace,
    runStrategy: str('run-strategy') ?? 'Always', terminationGracePeriod: intFlag(values, 'termination-grace-period') ?? 180,
    memory: str('memory'), instancetype: str('instancetype'), preference: str('preference'),
    containerdisks: lists['volume-containerdisk'] ?? [], pvcs: lists['volume-pvc'] ?? [],
    user: str('user'), sshKeys: (lists['ssh-key'] ?? []).flatMap((k) => k.split(',')), cloudInitUserData: str('cloud-init-user-data'),
  });
  out.stdout(stringify(vm));
}

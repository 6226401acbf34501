/**
 * `kv virtctl` (also installed as `virtctl`): KubeVirt's virtctl commands against any cluster a
 * kubeconfig points at, with KubeVirt's flags, output and exit codes, so scripts written for
 * virtctl work unchanged. Errors print one line on stderr and exit 1; usage errors add the usage.
 */
import { consoleCommand } from './commands/console';
import { exposeCommand } from './commands/expose';
import { pauseCommand, softRebootCommand, vmCommand } from './commands/lifecycle';
import { migrateCancelCommand } from './commands/migrate-cancel';
import { guestInfoCommand } from './commands/guest-info';
import { createCommand } from './commands/create';
import { versionCommand } from './commands/version';
import { volumeCommand } from './commands/volumes';
import { imageUploadCommand } from './commands/image-upload';
import { vncCommand } from './commands/vnc';
import { portForwardCommand } from './commands/port-forward';
import { scpCommand, sshCommand } from './commands/ssh';
import { processOutput, type Output } from './output';
import { UsageError, VirtctlError } from './virtctl-error';

interface Command { usage: string; describe: string; run(argv: string[], out: Output): Promise<void> }

export const COMMANDS: Record<string, Command> = {
  start: { usage: 'start VM [--paused] [--dry-run]', describe: 'Start a virtual machine.', run: (a, o) => vmCommand('start', a, o) },
  stop: { usage: 'stop VM [--force --grace-period=0] [--dry-run]', describe: 'Stop a virtual machine.', run: (a, o) => vmCommand('stop', a, o) },
  restart: { usage: 'restart VM [--force --grace-period=0] [--dry-run]', describe: 'Restart a virtual machine.', run: (a, o) => vmCommand('restart', a, o) },
  migrate: { usage: 'migrate VM [--addedNodeSelector=k=v,...] [--dry-run]', describe: 'Migrate a virtual machine.', run: (a, o) => vmCommand('migrate', a, o) },
  'migrate-cancel': { usage: 'migrate-cancel VM [--dry-run]', describe: 'Cancel migration of a virtual machine.', run: migrateCancelCommand },
  pause: { usage: 'pause vm|vmi NAME [--dry-run]', describe: 'Pause a virtual machine', run: (a, o) => pauseCommand('pause', a, o) },
  unpause: { usage: 'unpause vm|vmi NAME [--dry-run]', describe: 'Unpause a virtual machine', run: (a, o) => pauseCommand('unpause', a, o) },
  'soft-reboot': { usage: 'soft-reboot VMI', describe: 'Soft reboot a virtual machine instance', run: softRebootCommand },
  console: { usage: 'console VMI', describe: 'Connect to a console of a virtual machine instance.', run: (a, o) => consoleCommand(a, o) },
  vnc: { usage: 'vnc VMI [--proxy-only] [--port N] [--address A] [--preserve-session]', describe: 'Open a VNC connection to a virtual machine instance.', run: (a, o) => vncCommand(a, o) },
  'port-forward': { usage: 'port-forward TYPE/NAME[.NAMESPACE] [tcp/|udp/]PORT[:REMOTE]... [--address A] [--stdio]', describe: 'Forward local ports to a virtualmachine or virtualmachineinstance.', run: (a, o) => portForwardCommand(a, o) },
  ssh: { usage: 'ssh [USER@]TYPE/NAME[.NAMESPACE] [-i FILE] [-l USER] [-p PORT] [-c COMMAND] [--known-hosts FILE] [--local-ssh-opts OPT]...', describe: 'Open a SSH connection to a virtual machine instance.', run: sshCommand },
  scp: { usage: 'scp [-r] SRC DST (one of them [USER@]TYPE/NAME[.NAMESPACE]:PATH) [-i FILE] [-l USER] [-p PORT] [--known-hosts FILE]', describe: 'SCP files from/to a virtual machine instance.', run: scpCommand },
  expose: { usage: 'expose vm|vmi NAME --name SVC [--port P] [--target-port T] [--type ClusterIP|NodePort|LoadBalancer]', describe: 'Expose a virtual machine instance as a new service.', run: exposeCommand },
  guestosinfo: { usage: 'guestosinfo VMI', describe: 'Return guest agent info about operating system.', run: (a, o) => guestInfoCommand('guestosinfo', a, o) },
  userlist: { usage: 'userlist VMI', describe: 'Return full list of logged in users on the guest machine.', run: (a, o) => guestInfoCommand('userlist', a, o) },
  fslist: { usage: 'fslist VMI', describe: 'Return full list of filesystems available on the guest machine.', run: (a, o) => guestInfoCommand('fslist', a, o) },
  create: { usage: 'create vm [--name N] [--instancetype [kind/]NAME] [--preference [kind/]NAME] [--volume-containerdisk src:IMAGE[,name:N][,bootorder:N]]... [--volume-pvc src:PVC[,name:N]]... [--memory Q] [--run-strategy S] [--user U --ssh-key KEY] [--cloud-init-user-data BASE64]', describe: 'Create a VirtualMachine manifest.', run: createCommand },
  addvolume: { usage: 'addvolume VMI --volume-name=NAME [--serial S] [--cache C] [--persist] [--dry-run]', describe: 'add a volume to a running VM', run: (a, o) => volumeCommand('add', a, o) },
  removevolume: { usage: 'removevolume VMI --volume-name=NAME [--persist] [--dry-run]', describe: 'remove a volume from a running VM', run: (a, o) => volumeCommand('remove', a, o) },
  'image-upload': { usage: 'image-upload dv NAME --size=SIZE --image-path=FILE [--storage-class C] [--access-mode M] [--volume-mode filesystem|block] [--uploadproxy-url URL] [--no-create] [--wait-secs N] [--insecure]', describe: 'Upload a VM image to a DataVolume.', run: imageUploadCommand },
  version: { usage: 'version [--client]', describe: 'Print the client and server version information.', run: versionCommand },
};

export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(15)}${c.describe}`);
  return `virtctl controls virtual machine related operations on your kubernetes cluster.\n\nUsage:\n  virtctl [command] [flags]   (global flags: -n NAMESPACE, --kubeconfig FILE, --context NAME)\n\nAvailable Commands:\n${rows.join('\n')}\n`;
}

/** Runs one virtctl command line; returns the exit code (0 ok, 1 error). */
export async function runVirtctl(argv: string[], out: Output = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    out.stdout(usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    out.stderr(`unknown command "${name}" for "virtctl"\n\n${usage()}`);
    return 1;
  }
  if (rest.some((a) => a === '--help' || a === '-h')) {
    out.stdout(`${command.describe}\n\nUsage:\n  virtctl ${command.usage}\n\nGlobal flags: -n/--namespace NAMESPACE, --kubeconfig FILE, --context NAME\n`);
    return 0;
  }
  try {
    await command.run(rest, out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) out.stderr(`${err.message}\nUsage:\n  virtctl ${command.usage}\n`);
    else out.stderr(`${err instanceof VirtctlError || err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

export async function runVirtctlCommand(argv: string[]): Promise<void> {
  process.exitCode = await runVirtctl(argv);
}

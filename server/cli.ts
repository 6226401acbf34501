/**
 * The `kv` command. Each subcommand lives with its component and is loaded lazily,
 * so `kv launcher` does not pay for the API server's imports. `kv --help`, `kv --version` and
 * `kv <command> --help` print to stdout and exit 0; a bad flag prints the command's usage on
 * stderr and exits 2.
 */
import { KUBEVIRT_TS_VERSION } from '../lib/kubevirt/version';
import { compactAfterStartup } from './startup-gc';

type Runner = (argv: string[]) => Promise<void>;

interface Command {
  describe: string;
  /** flags, as `kv <command> --help` prints them; undefined when the command prints its own help */
  usage?: string;
  load: () => Promise<Runner>;
}

const COMMON = '[--data-dir DIR] [--kubeconfig FILE]';

const commands: Record<string, Command> = {
  up: {
    describe: 'start a whole cluster on this machine (API server, scheduler, nodes, controllers, console)',
    usage: 'kv up [--data-dir DIR] [--nodes N] [--api-port P] [--console-port P] [--virt-api-port P] [--host H] [--no-console] [--login-link-ttl 5m] [--separate-processes] [--bare]\n'
      + '       --bare: a bare Kubernetes only (API server, scheduler, Deployment/ReplicaSet/DaemonSet controllers, Services/DNS, storage, N kubelets),\n'
      + '               no KubeVirt component, CRD, console or demo image: install kubevirt-ts onto it as onto kind (docs/cluster-mode.md)',
    load: async () => (await import('./up/main')).runUpCommand,
  },
  apiserver: { describe: 'run the embedded API server alone', usage: 'kv apiserver [--data-dir DIR] [--port P] [--host H] [--advertise-address IP] [--no-crds]', load: async () => (await import('./apiserver/main')).runApiServerCommand },
  scheduler: { describe: 'run the embedded scheduler (with --kube-controllers: the Deployment, ReplicaSet and DaemonSet controllers in the same process)', usage: `kv scheduler ${COMMON} [--scheduler-name NAME] [--kube-controllers]`, load: async () => (await import('./node/main-scheduler')).runSchedulerCommand },
  'kube-controllers': { describe: "run kube-controller-manager's workload controllers (Deployment, ReplicaSet, DaemonSet)", usage: `kv kube-controllers ${COMMON}`, load: async () => (await import('./kube-controllers/main')).runKubeControllersCommand },
  node: { describe: 'run a process-kubelet for one local node', usage: `kv node --name NODE ${COMMON} [--nodes-total N] [--stop-pods-on-exit] [--no-pod-network | --pod-network] [--eviction-hard SIGNAL<VALUE,...] [--allow-host-commands (tests only: any Pod's command runs on the host)]`, load: async () => (await import('./node/main-kubelet')).runNodeCommand },
  handler: { describe: "run a node's virt-handler", usage: `kv handler --node NODE ${COMMON} [--host H] [--port P] [--clean-pod-dirs]`, load: async () => (await import('./virt-handler/main')).runHandlerCommand },
  controller: { describe: 'run virt-controller', usage: `kv controller ${COMMON} [--launcher-image IMAGE] [--metrics-host H] [--metrics-port P]`, load: async () => (await import('./virt-controller/main')).runControllerCommand },
  'control-plane': { describe: 'run several components in one process (kv up does, to save memory): kv control-plane scheduler FLAGS --and controller FLAGS ...', usage: 'kv control-plane COMMAND [FLAGS] [--and COMMAND [FLAGS]]... (COMMAND: scheduler, controller, network, storage, node, handler; or virt-api, console, which share only with each other)', load: async () => (await import('./control-plane/main')).runControlPlaneCommand },
  storage: { describe: 'run the storage controllers (PV binding, local provisioner, DataVolumes, the upload endpoint)', usage: `kv storage ${COMMON} [--upload-port P] [--upload-host H] [--no-datavolumes]`, load: async () => (await import('./storage/main')).runStorageCommand },
  network: { describe: 'run the embedded service and policy plane (Endpoints, the nftables service proxy, cluster DNS, NetworkPolicy)', usage: `kv network ${COMMON}`, load: async () => (await import('./network/main')).runNetworkCommand },
  importer: { describe: "run one CDI-like importer (an importer Pod's command; configured by its environment)", usage: 'kv importer', load: async () => (await import('./cdi/importer/main')).runImporterCommand },
  'hotplug-disk': { describe: "hold a hot-plugged volume on its node (an attachment Pod's command)", usage: 'kv hotplug-disk', load: async () => (await import('./virt-controller/vmi/hotplug-holder')).runHotplugHolderCommand },
  launcher: { describe: "run one virt-launcher (a launcher Pod's command; configured by its environment)", usage: 'kv launcher', load: async () => (await import('./virt-launcher/main')).runLauncherCommand },
  'virt-api': { describe: 'run virt-api (subresources.kubevirt.io, admission webhooks, console streams)', load: async () => (await import('./virt-api/main')).runVirtApiCommand },
  console: { describe: 'run the web console; `kv console login-link` prints a fresh one-time sign-in link', usage: `kv console ${COMMON} [--port P] [--host H] [--dev]\n       kv console login-link [--data-dir DIR] [--ttl 5m] [--url http://HOST:PORT]`, load: async () => (await import('./console/main')).runConsoleCommand },
  virtctl: { describe: "KubeVirt's virtctl: start, stop, restart, migrate, pause, console, vnc, expose ... (also installed as `virtctl`)", load: async () => (await import('./virtctl/main')).runVirtctlCommand },
  'image-upload': { describe: 'upload a disk image into a DataVolume (virtctl image-upload dv NAME --size=S --image-path=F)', load: async () => { const run = (await import('./virtctl/main')).runVirtctlCommand; return (argv: string[]) => run(['image-upload', ...argv]); } },
  defaults: { describe: "apply the embedded cluster's defaults again (KubeVirt CR, common instance types, storage classes; kv up does it at start)", usage: 'kv defaults [--data-dir DIR] [--bare]', load: async () => (await import('./up/defaults')).runDefaultsCommand },
  bundle: { describe: 'prebuild the kv bundle so kv processes (launcher Pods above all) start without transpiling', usage: 'kv bundle', load: async () => (await import('./bundle/main')).runBundleCommand },
  token: { describe: 'API tokens with a role and a lifetime: kv token create --role view|edit|admin [--ttl 8h] [-n NS], list, revoke NAME', usage: 'kv token create --role view|edit|admin [--ttl 8h] [-n NAMESPACE] [--data-dir DIR] [--kubeconfig FILE]\n       kv token list [-o json]\n       kv token revoke NAME', load: async () => (await import('./access-tokens/cli')).runTokenCommand },
  'install-certs': { describe: "virt-api's serving certificate and the caBundle of its APIServices and webhooks, for an install without cert-manager", usage: 'kv install-certs [--kubeconfig FILE] [--namespace kubevirt] [--service virt-api] [--secret virt-api-certs]', load: async () => (await import('./virt-api/install/main')).runInstallCerts },
  images: { describe: 'manage the local image store (import, pull, ls, build-demo)', load: async () => (await import('./images/cli')).runImagesCommand },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length)) + 2;
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.describe}`);
  return `usage: kv <command> [flags]\n       kv <command> --help\n       kv --version\n\ncommands:\n${rows.join('\n')}\n`;
}

const isHelp = (a: string) => a === '--help' || a === '-h';
/** a parseArgs flag error (unknown option, missing value): the user's mistake, not a crash */
const isFlagError = (err: unknown) => err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS');

const [name, ...rest] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (name === '--version' || name === 'version') {
  process.stdout.write(`kv ${KUBEVIRT_TS_VERSION}\n`);
} else if (!command) {
  (name === undefined || isHelp(name) ? process.stdout : process.stderr).write(usage());
  process.exitCode = name === undefined || isHelp(name) ? 0 : 2;
} else if (command.usage && rest.some(isHelp)) {
  process.stdout.write(`${command.describe}\n\nusage: ${command.usage}\n`);
} else {
  const run = await command.load();
  compactAfterStartup();
  try {
    await run(rest);
  } catch (err) {
    if (!isFlagError(err)) throw err;
    process.stderr.write(`kv ${name}: ${(err as Error).message}\n${command.usage ? `usage: ${command.usage}\n` : ''}`);
    process.exitCode = 2;
  }
}

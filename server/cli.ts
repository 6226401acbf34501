/**
 * The `kv` command. Each subcommand lives with its component and is loaded lazily,
 * so `kv launcher` does not pay for the API server's imports.
 */
export {};

type Runner = (argv: string[]) => Promise<void>;

const commands: Record<string, { describe: string; load: () => Promise<Runner> }> = {
  up: { describe: 'start a whole cluster on this machine (API server, scheduler, nodes, controllers, console)', load: async () => (await import('./up/main')).runUpCommand },
  apiserver: { describe: 'run the embedded API server alone', load: async () => (await import('./apiserver/main')).runApiServerCommand },
  scheduler: { describe: 'run the embedded scheduler', load: async () => (await import('./node/main-scheduler')).runSchedulerCommand },
  node: { describe: 'run a process-kubelet for one local node', load: async () => (await import('./node/main-kubelet')).runNodeCommand },
  handler: { describe: "run a node's virt-handler", load: async () => (await import('./virt-handler/main')).runHandlerCommand },
  controller: { describe: 'run virt-controller', load: async () => (await import('./virt-controller/main')).runControllerCommand },
  launcher: { describe: 'run one virt-launcher (a launcher Pod\'s command)', load: async () => (await import('./virt-launcher/main')).runLauncherCommand },
  'virt-api': { describe: 'run virt-api (subresources.kubevirt.io, admission webhooks, console streams)', load: async () => (await import('./virt-api/main')).runVirtApiCommand },
  console: { describe: 'run the web console', load: async () => (await import('./console/main')).runConsoleCommand },
  virtctl: { describe: "KubeVirt's virtctl: start, stop, restart, migrate, pause, console, vnc, expose ... (also installed as `virtctl`)", load: async () => (await import('./virtctl/main')).runVirtctlCommand },
  bundle: { describe: 'prebuild the kv bundle so kv processes (launcher Pods above all) start without transpiling', load: async () => (await import('./bundle/main')).runBundleCommand },
  images: { describe: 'manage the local image store (import, ls, build-demo)', load: async () => (await import('./images/cli')).runImagesCommand },
};

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(11)}${c.describe}`);
  return `usage: kv <command> [flags]\n\ncommands:\n${rows.join('\n')}\n`;
}

const [name, ...rest] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) {
  process.stderr.write(usage());
  process.exit(name === undefined || name === '--help' || name === '-h' ? 0 : 2);
} else {
  const run = await command.load();
  await run(rest);
}

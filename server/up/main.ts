import { mkdirSync } from 'node:fs';
import { checkSocketPathLength, dataPaths } from '../data-dir';
import { lockDataDir } from '../data-dir-lock';
import { createUpLog } from './up-log';
import { parseUpFlags, type UpOptions } from './flags';
import { SupervisedComponent, type ComponentSpec } from './supervisor';
import { shareProcess } from './shared-process';
import { API_SERVER_FLAGS, COMPONENT_FLAGS, SMALL_YOUNG_GENERATION, componentEnv } from './node-flags';
import { freePorts } from './free-ports';
import { apiGet, httpStatus, readApiAccess, podNetworkLine, readyNodes, waitFor, type ApiAccess } from './readiness';
import { applyDefaultsInChild } from './apply-defaults';
import { sweepPodProcesses } from './sweep';
import { ensureDemoImage } from './demo-image';
import { API_ADVERTISE_ADDRESS } from '../network/service-model';
import { mintLoginLink } from '../console/login-link';
import { BUNDLE_ENV, pinKvBundle } from '../bundle/pin-bundle';

/** the API server's /healthz answers 200 within the bound (it is a public path: no token needed) */
async function apiServerAnswers(kubeconfig: string, timeoutMs: number): Promise<boolean> {
  const access = readApiAccess(kubeconfig);
  return !!access && (await apiGet(access, '/healthz', timeoutMs)).status === 200;
}

/** Components in start order; each stage waits for the previous one's readiness gate (k3s style). */
/** virt-api's /healthz answers 200 within the bound (its certificate is issued by the cluster CA) */
async function virtApiAnswers(kubeconfig: string, port: number, timeoutMs: number): Promise<boolean> {
  const access = readApiAccess(kubeconfig);
  return !!access && (await apiGet({ ...access, server: `https://127.0.0.1:${port}` }, '/healthz', timeoutMs)).status === 200;
}

interface UpPlan { apiserver: ComponentSpec; virtApi?: ComponentSpec; control: ComponentSpec[]; nodes: ComponentSpec[]; console?: ComponentSpec }

/**
 * What runs. Both modes: the API server, the scheduler with kube-controller-manager's workload
 * controllers in its process (`--kube-controllers`: Deployments run on any `kv up`), the network
 * plane, storage and N kubelets. Not bare: KubeVirt too (virt-api, virt-controller, a virt-handler
 * per node, the console). Bare: no CRD, no DataVolumes — what kind gives before an install.
 */
/**
 * A bare cluster's Pods run in their own network namespaces and reach the API server through the
 * `kubernetes` Service: the API server advertises a host address they can reach (unless the pod network is off).
 */
function advertiseFlags(): string[] {
  return process.env.KV_POD_NETWORK === '0' ? [] : ['--advertise-address', API_ADVERTISE_ADDRESS];
}

function plan(o: UpOptions, handlerPorts: number[], uploadPort: number, controllerMetricsPort: number): UpPlan {
  const common = ['--data-dir', o.dataDir];
  const paths = dataPaths(o.dataDir);
  const kubeconfig = ['--kubeconfig', paths.kubeconfig];
  // KubeVirt's components act as their own service accounts (virt-api's admission trusts those)
  const as = (component: string) => ['--kubeconfig', paths.componentKubeconfig(component)];
  const names = Array.from({ length: o.nodes }, (_, i) => `node-${i + 1}`);
  return {
    apiserver: { name: 'apiserver', nodeFlags: API_SERVER_FLAGS, args: ['apiserver', ...common, '--port', String(o.apiPort), ...(o.bare ? ['--no-crds', ...advertiseFlags()] : [])], liveness: { check: (timeoutMs) => apiServerAnswers(paths.kubeconfig, timeoutMs) } },
    // virt-api runs whether or not the console does: admission and every subresource need it
    virtApi: o.bare ? undefined : {
      name: 'virt-api', nodeFlags: SMALL_YOUNG_GENERATION, args: ['virt-api', ...common, ...as('virt-api'), '--port', String(o.virtApiPort), '--allowed-origin', `http://${o.host}:${o.consolePort}`],
      liveness: { check: (timeoutMs) => virtApiAnswers(paths.kubeconfig, o.virtApiPort, timeoutMs) },
    },
    control: [
      { name: 'scheduler', args: ['scheduler', ...common, ...kubeconfig, '--kube-controllers'] },
      ...(o.bare ? [] : [{ name: 'controller', args: ['controller', ...common, ...as('virt-controller'), '--metrics-port', String(controllerMetricsPort), '--metrics-host', '127.0.0.1'] }]),
      { name: 'network', args: ['network', ...common, ...kubeconfig] },
      o.bare ? { name: 'storage', args: ['storage', ...common, ...kubeconfig, '--no-datavolumes'] } : {
        name: 'storage', args: ['storage', ...common, ...kubeconfig, '--upload-port', String(uploadPort)],
        liveness: { check: async (timeoutMs) => (await httpStatus(`http://127.0.0.1:${uploadPort}/healthz`, timeoutMs)) === 200 },
      },
    ],
    nodes: names.flatMap((n, i): ComponentSpec[] => [
      { name: `${n}-kubelet`, args: ['node', ...common, ...kubeconfig, '--name', n, '--nodes-total', String(o.nodes), '--stop-pods-on-exit'] },
      // a port chosen here, so the probe asks the handler itself (not the API server, whose outage must not kill handlers)
      ...(o.bare ? [] : [{
        name: `${n}-handler`, args: ['handler', ...common, ...as('virt-handler'), '--node', n, '--port', String(handlerPorts[i])],
        liveness: { check: async (timeoutMs: number) => (await httpStatus(`http://127.0.0.1:${handlerPorts[i]}/healthz`, timeoutMs)) === 200 },
      }]),
    ]),
    console: o.console ? {
      name: 'console', nodeFlags: SMALL_YOUNG_GENERATION, args: ['console', ...common, ...as('virt-api'), '--port', String(o.consolePort), '--host', o.host],
      liveness: { check: async (timeoutMs) => (await httpStatus(`http://${o.host}:${o.consolePort}/healthz`, timeoutMs)) === 200 },
    } : undefined,
  };
}

export async function runUpCommand(argv: string[]): Promise<void> {
  let opts: UpOptions;
  try {
    opts = parseUpFlags(argv);
  } catch (err) {
    process.stderr.write(`kv up: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const paths = dataPaths(opts.dataDir);
  let releaseLock: () => void;
  try {
    checkSocketPathLength(opts.dataDir, `node-${opts.nodes}`);
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    releaseLock = lockDataDir(opts.dataDir, 'kv up');
  } catch (err) {
    process.stderr.write(`kv up: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const { log: upLog, say } = createUpLog(paths.logs);
  say(`kv up: data dir ${opts.dataDir}, ${opts.nodes} node(s)${opts.bare ? ', bare (no KubeVirt)' : ''}; component logs in ${paths.logs}`);
  // one pick for every port kv up chooses, none equal to each other or to a port given on the command line
  const chosen = await freePorts(opts.nodes + 2 + (opts.virtApiPort === 0 ? 1 : 0), [opts.apiPort, opts.consolePort, opts.virtApiPort]);
  if (opts.virtApiPort === 0) opts = { ...opts, virtApiPort: chosen.pop()! };
  const [uploadPort, controllerMetricsPort, ...handlerPorts] = chosen;
  const p = plan(opts, handlerPorts, uploadPort, controllerMetricsPort);
  const running: SupervisedComponent[] = [];
  let bundle: string | undefined;
  const launch = (spec: ComponentSpec) => {
    const env = { ...componentEnv(), ...spec.env, ...(bundle ? { [BUNDLE_ENV]: bundle } : {}) };
    const c = new SupervisedComponent({ ...spec, env, nodeFlags: [...COMPONENT_FLAGS, ...(spec.nodeFlags ?? [])] }, paths.logs, upLog);
    c.start();
    running.push(c);
    return c;
  };
  const abort = new AbortController();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    abort.abort();
    say('kv up: stopping');
    // reverse start order: console, node agents, controllers, API server last
    for (const c of [...running].reverse()) await c.stop();
    const leftovers = sweepPodProcesses(paths.nodes);
    if (leftovers.length) upLog.warn({ pids: leftovers }, 'killed leftover pod processes');
    say('kv up: stopped');
    releaseLock();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));

  try {
    [bundle] = await Promise.all([pinKvBundle(paths.bundle, upLog), opts.bare ? undefined : ensureDemoImage(paths.images, upLog)]); // components start from the bundle
    sweepPodProcesses(paths.nodes); // pods of a previous run that was killed hard
    launch(p.apiserver);
    let access: ApiAccess | undefined;
    await waitFor('the API server', async () => {
      access = readApiAccess(paths.kubeconfig);
      return !!access && (await apiGet(access, '/readyz')).status === 200;
    }, { timeoutMs: 60_000, signal: abort.signal });
    say(`kv up: API server ready at ${access!.server}`);
    // embedded mode: the console shares virt-api's process (both face users, neither holds state) unless asked not to
    const userFacing = p.virtApi && p.console && !opts.separateProcesses ? shareProcess('virt-api-console', [p.virtApi, p.console]) : undefined;
    if (p.virtApi) {
      launch(userFacing ?? p.virtApi);
      await waitFor('virt-api (admission and subresources.kubevirt.io)', async () => (await apiGet(access!, '/apis/subresources.kubevirt.io/v1')).status === 200,
        { timeoutMs: 60_000, intervalMs: 100, signal: abort.signal });
      say(`kv up: virt-api ready on https://127.0.0.1:${opts.virtApiPort}`);
    }
    say(`kv up: ${await applyDefaultsInChild(opts.dataDir, bundle ? { [BUNDLE_ENV]: bundle } : {}, opts.bare)}`); // a child: kv up never loads the Kubernetes client
    // embedded mode: the controllers and every node's kubelet and handler share one process unless asked not to
    (opts.separateProcesses ? [...p.control, ...p.nodes] : [shareProcess('control-plane', [...p.control, ...p.nodes])]).forEach(launch);
    const withHandler = !opts.bare;
    await waitFor(`${opts.nodes} Ready nodes`, async () => (await readyNodes(access!, { withHandler })).length >= opts.nodes, { timeoutMs: 90_000, intervalMs: 200, signal: abort.signal });
    say(`kv up: ${opts.nodes} node(s) Ready${withHandler ? ', each with its virt-handler' : ''}; ${await podNetworkLine(access!)}`);
    let consoleUrl = '(console disabled)';
    if (p.console) {
      if (!userFacing) launch(p.console);
      const base = `http://${opts.host}:${opts.consolePort}`;
      await waitFor('the console', async () => (await httpStatus(`${base}/healthz`)) === 200, { timeoutMs: 120_000, intervalMs: 200, signal: abort.signal });
      consoleUrl = mintLoginLink(opts.dataDir, base, access!.token, opts.loginLinkTtl).url;
    }
    if (opts.bare) process.stdout.write(`kubevirt-ts ready: bare cluster (no KubeVirt; install it with kubectl apply -k deploy/cluster) kubeconfig ${paths.kubeconfig}\n`);
    else process.stdout.write(`kubevirt-ts ready: console ${consoleUrl} kubeconfig ${paths.kubeconfig}\n`);
    if (p.console) say(`kv up: the console link works once, for ${opts.loginLinkTtl} s; \`kv console login-link --data-dir ${opts.dataDir}\` prints a fresh one`);
  } catch (err) {
    if (stopping) return;
    upLog.error({ err: (err as Error).message, logs: paths.logs }, 'start failed');
    process.stderr.write(`kv up: ${(err as Error).message} (component logs in ${paths.logs})\n`);
    await stop(1);
  }
}

/**
 * The HTTP (non-WebSocket) subresources: authorize for the caller, validate state, record intent
 * (lifecycle) or forward to the node's virt-handler (pause, unpause, softreboot, guestosinfo,
 * vnc/screenshot). One table: subresource → method, verb and handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, VMI_RESOURCE, VM_RESOURCE, badRequest, conflict } from './api-error';
import { callHandler, resolveHandler } from './handler-client';
import { applyWrites, StaleRead } from './lifecycle/apply-writes';
import { planMigrate } from './lifecycle/migrate';
import { decodeOptions, isDryRun, unmarshalError, type DryRunOptions } from './lifecycle/options';
import { planRestart } from './lifecycle/restart';
import { planStart } from './lifecycle/start';
import { planStop } from './lifecycle/stop';
import { checkGuestAgent, checkPause, checkScreenshot, checkSoftReboot, checkUnpause } from './lifecycle/vmi-checks';
import type { Write } from './lifecycle/writes';
import { expandVM } from './expand-spec';
import { EXPAND_VM_SPEC, serveExpandVMSpec } from './expand-vm-spec';
import { parseVolumeRequest, requestOnVM, requestOnVMI } from './lifecycle/hotplug';
import { readOptionalBody } from './request-body';
import type { Caller } from './request-auth';
import { findVM, findVMI, getVM, getVMI, type SubresourceContext } from './subresource-context';
import type { SubresourcePath } from './subresource-path';
import type { VirtualMachine, VirtualMachineInstance } from '../../lib/kubevirt';
import { parseGoDuration } from '../../lib/kubevirt/go-duration';

type Reply = { code: number; body?: Buffer | string; contentType?: string };
interface Call { ctx: SubresourceContext; path: SubresourcePath; req: IncomingMessage }
interface Route { method: 'GET' | 'PUT'; run(c: Call): Promise<Reply> }

/** Re-reads after a resourceVersion-only guard failed (the controller wrote in between); a failed value test is a 409 at once. */
const STALE_READ_ATTEMPTS = 3;

type Planner<O> = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: O) => Write[];

const lifecycle = <O extends DryRunOptions>(kind: 'start' | 'stop' | 'restart' | 'migrate', plan: Planner<O>): Route => ({
  method: 'PUT',
  async run({ ctx, path, req }) {
    const opts = decodeOptions<O>(kind, await readOptionalBody(req));
    for (let attempt = 1; ; attempt++) {
      const vm = await getVM(ctx, path.namespace, path.name);
      const vmi = await findVMI(ctx, path.namespace, path.name);
      try {
        await applyWrites({ custom: ctx.custom, namespace: path.namespace, name: path.name, dryRun: isDryRun(opts) }, plan(vm, vmi, opts));
        return { code: 202 };
      } catch (err) {
        if (!(err instanceof StaleRead)) throw err;
        if (attempt >= STALE_READ_ATTEMPTS) throw err.conflict;
      }
    }
  },
});

const forward = (sub: string, method: 'GET' | 'PUT', check: (vmi: VirtualMachineInstance, c: Call) => Promise<void> | void): Route => ({
  method,
  async run(c) {
    const { ctx, path, req } = c;
    const opts = method === 'PUT' ? decodeOptions<DryRunOptions>('vmi', await readOptionalBody(req)) : {};
    const vmi = await getVMI(ctx, path.namespace, path.name);
    await check(vmi, c);
    if (isDryRun(opts)) return { code: 200 };
    const res = await callHandler(await resolveHandler(ctx.handlers, vmi), vmi, method, sub);
    return method === 'PUT' ? { code: 200 } : { code: 200, body: res.body, contentType: res.contentType };
  },
});

const vmVolume = (kind: 'add' | 'remove'): Route => ({
  method: 'PUT',
  async run({ ctx, path, req }) {
    const request = parseVolumeRequest(kind, await readOptionalBody(req));
    const vm = await getVM(ctx, path.namespace, path.name);
    await requestOnVM(ctx.custom, vm, await findVMI(ctx, path.namespace, path.name), request);
    return { code: 202 };
  },
});

const vmiVolume = (kind: 'add' | 'remove'): Route => ({
  method: 'PUT',
  async run({ ctx, path, req }) {
    const request = parseVolumeRequest(kind, await readOptionalBody(req));
    await requestOnVMI(ctx.custom, await getVMI(ctx, path.namespace, path.name), request);
    return { code: 202 };
  },
});

/** KubeVirt's default when the body names no unfreezeTimeout */
const DEFAULT_UNFREEZE_TIMEOUT_SECONDS = 300;

/** PUT freeze `{"unfreezeTimeout": "5m"}` / unfreeze: the guest's filesystems through the agent, on the VMI's node */
const freezeRoute = (freeze: boolean): Route => ({
  method: 'PUT',
  async run({ ctx, path, req }) {
    const body = await readOptionalBody(req);
    const raw = (body as { unfreezeTimeout?: unknown } | undefined)?.unfreezeTimeout;
    let seconds = DEFAULT_UNFREEZE_TIMEOUT_SECONDS;
    if (freeze && raw !== undefined) {
      const ms = typeof raw === 'string' ? parseGoDuration(raw) : undefined;
      if (ms === undefined || ms < 0) throw unmarshalError(`time: invalid duration ${JSON.stringify(raw)}`);
      seconds = Math.ceil(ms / 1000);
    }
    const vmi = await getVMI(ctx, path.namespace, path.name);
    if (vmi.status?.phase !== 'Running') throw conflict(VMI_RESOURCE, path.name!, freeze ? 'VM is not running' : 'VMI is not running');
    await callHandler(await resolveHandler(ctx.handlers, vmi), vmi, 'PUT', freeze ? `freeze/${seconds}` : 'unfreeze');
    return { code: 200 };
  },
});

const ROUTES: Record<string, Record<string, Route>> = {
  virtualmachines: {
    start: lifecycle('start', planStart),
    stop: lifecycle('stop', planStop),
    restart: lifecycle('restart', planRestart),
    migrate: lifecycle('migrate', planMigrate),
    addvolume: vmVolume('add'),
    removevolume: vmVolume('remove'),
    'expand-spec': {
      method: 'GET',
      async run({ ctx, path }) {
        const vm = await getVM(ctx, path.namespace, path.name);
        return { code: 200, body: JSON.stringify(ctx.instancetypes ? await expandVM(vm, ctx.instancetypes) : vm), contentType: 'application/json' };
      },
    },
  },
  virtualmachineinstances: {
    pause: forward('pause', 'PUT', checkPause),
    addvolume: vmiVolume('add'),
    removevolume: vmiVolume('remove'),
    unpause: forward('unpause', 'PUT', async (vmi, { ctx, path }) => checkUnpause(vmi, await findVM(ctx, path.namespace, path.name))),
    softreboot: forward('softreboot', 'PUT', checkSoftReboot),
    guestosinfo: forward('guestosinfo', 'GET', checkGuestAgent),
    userlist: forward('userlist', 'GET', checkGuestAgent),
    filesystemlist: forward('filesystemlist', 'GET', checkGuestAgent),
    'vnc/screenshot': forward('screenshot', 'GET', checkScreenshot),
    freeze: freezeRoute(true),
    unfreeze: freezeRoute(false),
  },
};

export function findRoute(path: SubresourcePath): Route | undefined {
  return ROUTES[path.resource]?.[path.subresource];
}

export async function serveSubresource(ctx: SubresourceContext, caller: Caller, path: SubresourcePath, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = findRoute(path);
  const resource = path.resource === 'virtualmachines' ? VM_RESOURCE : VMI_RESOURCE;
  if (!route) throw new ApiError(404, 'NotFound', `the server could not find the requested resource (${resource} ${path.subresource})`);
  if (req.method !== route.method) throw new ApiError(405, 'MethodNotAllowed', `${req.method} is not supported on ${path.subresource}`);
  if (!path.name) throw badRequest('name is required');
  await ctx.authorizer.check(caller, { verb: route.method === 'PUT' ? 'update' : 'get', namespace: path.namespace, resource: path.resource, subresource: path.subresource, name: path.name });
  const reply = await route.run({ ctx, path, req });
  res.writeHead(reply.code, reply.body !== undefined ? { 'content-type': reply.contentType ?? 'application/json' } : {});
  res.end(reply.body);
}

/** PUT …/namespaces/{ns}/expand-vm-spec: authorized as `update` on the resource `expand-vm-spec` (KubeVirt's rule). */
export async function serveExpandVMSpecRequest(ctx: SubresourceContext, caller: Caller, namespace: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'PUT') throw new ApiError(405, 'MethodNotAllowed', `${req.method} is not supported on ${EXPAND_VM_SPEC}`);
  if (namespace) await ctx.authorizer.check(caller, { verb: 'update', namespace, resource: EXPAND_VM_SPEC, subresource: '', name: '' });
  const vm = await serveExpandVMSpec(ctx, namespace, req);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(vm));
}

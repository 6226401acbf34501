/**
 * virtctl as a user runs it: the real `virtctl` command (bin/virtctl.mjs) against a `kv up`
 * cluster (2 nodes) with a demo guest. Start, pause, unpause, the serial console (a root login, Ctrl+]
 * leaves), the VNC proxy (a viewer gets the RFB greeting), expose, stop; and the errors a user
 * hits, with KubeVirt's wording and exit code 1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { isRunning } from './support/lifecycle-table';
import { callRest, until } from './support/rest';
import { createVM, demoVM, NS, readState } from './support/vm-fixtures';
import { openGuestShell } from './support/guest-shell';

const BOOT_MS = 120_000;
/** the guest answers every connection on port 8080 with one line (no port declared in the VM) */
const GUEST_SERVER = '#!/bin/sh\nbusybox nc -ll -p 8080 -e echo hello-from-guest &\n';
let c: LifecycleCluster;
/** an SSH key pair for `virtctl ssh`; its public half reaches the guest through accessCredentials and the agent */
const keyDir = mkdtempSync(join(tmpdir(), 'kv-ssh-'));
const KEY = join(keyDir, 'id_ed25519');

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 2 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', KEY]);
  const pub = readFileSync(`${KEY}.pub`, 'utf8');
  const secret = await callRest(c.admin, 'POST', `/api/v1/namespaces/${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo-ssh' }, stringData: { key1: pub } });
  expect(secret.status).toBe(201);
  const vm = demoVM('demo', { runStrategy: 'Halted', userScript: GUEST_SERVER });
  Object.assign(vm.spec.template.spec, { accessCredentials: [{ sshPublicKey: { source: { secret: { secretName: 'demo-ssh' } }, propagationMethod: { qemuGuestAgent: { users: ['root'] } } } }] });
  await createVM(c.admin, vm);
});
afterAll(async () => {
  await c?.stop();
  rmSync(keyDir, { recursive: true, force: true });
});

interface Run { code: number; out: string; err: string }

/** Spawns virtctl; `feed` gets its stdin and stdout to drive interactive commands. */
function virtctl(args: string[], feed?: (stdin: NodeJS.WritableStream, stdout: NodeJS.ReadableStream) => void): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['bin/virtctl.mjs', ...args], { env: { ...process.env, KUBECONFIG: c.cluster.kubeconfig, HOME: '/nonexistent' } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    feed?.(p.stdin, p.stdout);
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

describe('virtctl', () => {
  it('start → Running; a second start is refused with the server\'s reason', async () => {
    expect(await virtctl(['start', 'demo'])).toEqual({ code: 0, out: 'VM demo was scheduled to start\n', err: '' });
    await until('demo Running', async () => isRunning(await readState(c.admin, 'demo')), BOOT_MS);
    // KubeVirt's volumeStatus: an entry per volume with its disk's target device
    await until('volumeStatus targets', async () => {
      const vmi = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/demo`)).body;
      return JSON.stringify(vmi?.status?.volumeStatus) === JSON.stringify([{ name: 'cloudinit', target: 'vdb' }, { name: 'root', target: 'vda' }]);
    }, 30_000);
    const again = await virtctl(['start', 'demo']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^Error starting VirtualMachine .*VM is already running\n$/);
  });

  it('the guest agent connects; guestosinfo, fslist and userlist print what it reports', async () => {
    const since = Date.now();
    await until('AgentConnected', async () => (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/demo`)).body?.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'AgentConnected' && x.status === 'True'), 60_000);
    process.stderr.write(`guest agent connected ${Date.now() - since} ms after Running\n`);
    const os = await virtctl(['guestosinfo', 'demo']);
    expect(os.code, os.err).toBe(0);
    const info = JSON.parse(os.out) as { guestAgentVersion: string; hostname: string; os: { name: string; kernelRelease: string } };
    expect(info).toMatchObject({ hostname: 'demo', os: { name: 'kubevirt-ts demo' } });
    expect(info.os.kernelRelease).toMatch(/^6\.1\./);
    expect(info.guestAgentVersion).toMatch(/^7\./);
    const fs = await virtctl(['fslist', 'demo']);
    expect(fs.code, fs.err).toBe(0);
    expect(JSON.parse(fs.out)).toMatchObject({ kind: 'VirtualMachineInstanceFileSystemList' });
    const users = await virtctl(['userlist', 'demo']);
    expect(users.code, users.err).toBe(0);
    expect(JSON.parse(users.out)).toMatchObject({ kind: 'VirtualMachineInstanceGuestOSUserList' });
  });

  it('ssh and scp reach the guest with the key from accessCredentials (agent-propagated), through port-forward', async () => {
    const since = Date.now();
    await until('AccessCredentialsSynchronized', async () => (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/demo`)).body?.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'AccessCredentialsSynchronized' && x.status === 'True'), 60_000);
    process.stderr.write(`access credentials synchronized ${Date.now() - since} ms after the agent test\n`);
    const sshOpts = ['--local-ssh-opts=-oStrictHostKeyChecking=no', '--local-ssh-opts=-oBatchMode=yes', `--known-hosts=${join(keyDir, 'known_hosts')}`];
    const started = Date.now();
    const r = await virtctl(['ssh', 'root@vmi/demo', '-i', KEY, ...sshOpts, '-c', 'cat /proc/sys/kernel/hostname; id -u']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('demo\n0\n');
    process.stderr.write(`virtctl ssh round trip ${Date.now() - started} ms\n`);
    const local = join(keyDir, 'note.txt');
    writeFileSync(local, 'carried by scp\n');
    const up = await virtctl(['scp', '-i', KEY, ...sshOpts, local, 'root@vm/demo:/tmp/note.txt']);
    expect(up.code, up.err).toBe(0);
    const back = await virtctl(['ssh', 'vm/demo', '-l', 'root', '-i', KEY, ...sshOpts, '-c', 'cat /tmp/note.txt']);
    expect(back).toMatchObject({ code: 0, out: 'carried by scp\n' });
    // a key the Secret does not hold is refused by the guest: virtctl says how ssh ended
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keyDir, 'other')]);
    const denied = await virtctl(['ssh', 'root@vmi/demo', '-i', join(keyDir, 'other'), ...sshOpts, '-c', 'true']);
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('exit status 255');
  });

  it('pause vm → Paused; unpause vm → running again', async () => {
    expect(await virtctl(['pause', 'vm', 'demo'])).toEqual({ code: 0, out: 'VMI demo was scheduled to pause\n', err: '' });
    await until('demo paused', async () => (await readState(c.admin, 'demo')).paused, 30_000);
    expect((await virtctl(['pause', 'vmi', 'demo'])).code).toBe(1);
    expect(await virtctl(['unpause', 'vmi', 'demo'])).toEqual({ code: 0, out: 'VMI demo was scheduled to unpause\n', err: '' });
    await until('demo unpaused', async () => !(await readState(c.admin, 'demo')).paused, 30_000);
  });

  it('console: a root login on the serial line, Ctrl+] leaves with exit 0, and userlist then shows root', async () => {
    const run = await virtctl(['console', 'demo'], (stdin, stdout) => {
      let seen = '';
      let loggedIn = false;
      const poke = setInterval(() => stdin.write('\r'), 1500);
      stdout.on('data', (d) => {
        seen += d;
        if (!loggedIn && / login: $/.test(seen.trimEnd() + ' ')) {
          loggedIn = true;
          clearInterval(poke);
          stdin.write('root\r');
        } else if (loggedIn && /~# /.test(seen)) {
          stdin.write(Buffer.from([0x1d]));
        }
      });
      setTimeout(() => { clearInterval(poke); stdin.end(); }, 90_000).unref();
    });
    expect(run.out).toMatch(/\S+ login: /);
    expect(run.out).toMatch(/root@demo:~# /);
    expect(run.err).toContain('Successfully connected to demo console.');
    expect(run.code).toBe(0);
    // busybox login wrote the session into the guest's utmp; the agent reports it (KubeVirt's userlist)
    const users = await virtctl(['userlist', 'demo']);
    expect(users.code, users.err).toBe(0);
    const list = JSON.parse(users.out) as { items: { userName: string; loginTime: number }[] };
    expect(list.items.map((u) => u.userName)).toContain('root');
    expect(list.items.find((u) => u.userName === 'root')!.loginTime).toBeGreaterThan(Date.now() / 1000 - 300);
  });

  it('vnc --proxy-only prints a port where a viewer gets the guest\'s RFB greeting', async () => {
    let greeting = '';
    const run = await virtctl(['vnc', 'demo', '--proxy-only'], (_stdin, stdout) => {
      stdout.once('data', (d: Buffer) => {
        const { port } = JSON.parse(d.toString()) as { port: number };
        const sock = net.connect(port, '127.0.0.1');
        sock.on('data', (b) => {
          greeting += b.toString('latin1');
          if (greeting.length >= 12) sock.end();
        });
      });
    });
    expect(run.out).toMatch(/^\{"port":\d+\}\n$/);
    expect(greeting.slice(0, 12)).toBe('RFB 003.008\n');
    expect(run.code).toBe(0);
  });

  it('port-forward vm/demo carries a local port to an undeclared guest port; a missing VM is an error', async () => {
    const p = spawn(process.execPath, ['bin/virtctl.mjs', 'port-forward', 'vm/demo', '0:8080'], { env: { ...process.env, KUBECONFIG: c.cluster.kubeconfig, HOME: '/nonexistent' } });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        p.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out); });
        p.on('close', () => reject(new Error(`port-forward exited: ${out}`)));
      });
      const m = /^Forwarding from 127\.0\.0\.1:(\d+) -> 8080\n$/.exec(line);
      expect(m, line).not.toBeNull();
      const answer = await until('guest greeting through port-forward', async () => {
        const got = await new Promise<string>((resolve) => {
          const sock = net.connect(Number(m![1]), '127.0.0.1');
          let text = '';
          sock.on('data', (b) => { text += b.toString(); });
          sock.on('close', () => resolve(text.trim()));
          sock.on('error', () => resolve(''));
          setTimeout(() => sock.destroy(), 5000).unref();
        });
        return got || undefined;
      }, 60_000);
      expect(answer).toBe('hello-from-guest');
    } finally {
      p.kill('SIGINT');
    }
    const missing = await virtctl(['port-forward', 'vmi/nope', '80']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^can't access vmi\/nope: .*"nope" not found\n$/);
  });

  it('port-forward udp/ carries datagrams to the guest\'s port (the guest kernel counts them)', async () => {
    // the demo guest's busybox has no UDP server: its kernel's Udp NoPorts counter sees each datagram to a closed port
    const shell = await openGuestShell(c.admin, NS, 'demo');
    const noPorts = async () => Number(await shell.run("awk '/^Udp:/ { if (++n == 2) print $3 }' /proc/net/snmp"));
    const p = spawn(process.execPath, ['bin/virtctl.mjs', 'port-forward', 'vm/demo', 'udp/0:7'], { env: { ...process.env, KUBECONFIG: c.cluster.kubeconfig, HOME: '/nonexistent' } });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        p.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out); });
        p.on('close', () => reject(new Error(`port-forward exited: ${out} ${err}`)));
      });
      const m = /^Forwarding from 127\.0\.0\.1:(\d+) -> 7\n$/.exec(line);
      expect(m, line).not.toBeNull();
      const before = await noPorts();
      const udp = createSocket('udp4');
      for (let i = 0; i < 3; i++) {
        udp.send(`datagram ${i}`, Number(m![1]), '127.0.0.1');
        await new Promise((r) => setTimeout(r, 300));
      }
      udp.close();
      await until('the guest saw 3 datagrams on port 7', async () => (await noPorts()) - before >= 3, 30_000);
      expect(err).toBe('');
    } finally {
      p.kill('SIGINT');
      shell.close();
    }
  });

  it('expose vm creates a Service selecting the launcher Pod, owned by the VM', async () => {
    expect(await virtctl(['expose', 'vm', 'demo', '--name', 'demo-ssh', '--port', '22'])).toEqual({ code: 0, out: 'Service demo-ssh successfully created for vm demo\n', err: '' });
    const svc = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/services/demo-ssh`)).body;
    expect(svc.spec.selector).toEqual({ 'vmi.kubevirt.io/id': 'demo' });
    expect(svc.spec.ports).toMatchObject([{ port: 22, protocol: 'TCP' }]);
    expect(svc.metadata.ownerReferences[0]).toMatchObject({ kind: 'VirtualMachine', name: 'demo' });
    const noPort = await virtctl(['expose', 'vm', 'demo', '--name', 'nothing']);
    expect(noPort).toMatchObject({ code: 1, err: "couldn't find port via --port flag or introspection\n" });
  });

  it('migrate-cancel without a migration, a missing VM, a bad flag: clear errors, exit 1', async () => {
    expect(await virtctl(['migrate-cancel', 'demo'])).toMatchObject({ code: 1, err: 'Found no migration to cancel for demo\n' });
    const missing = await virtctl(['start', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^Error starting VirtualMachine .*"nope" not found\n$/);
    const bad = await virtctl(['stop', 'demo', '--grace-period', '0']);
    expect(bad).toMatchObject({ code: 1, err: 'Must both use --force=true and set --grace-period.\n' });
    expect((await virtctl(['frobnicate'])).err).toMatch(/^unknown command "frobnicate" for "virtctl"/);
  });

  it('create vm prints a manifest that runs as written (u1.nano, the demo preference, a containerdisk)', async () => {
    const made = await virtctl(['create', 'vm', '--name', 'made', '--instancetype', 'u1.nano', '--preference', 'demo', '--volume-containerdisk', 'src:demo,name:root']);
    expect(made.code, made.err).toBe(0);
    const created = await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`, parse(made.out));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await until('made Running', async () => isRunning(await readState(c.admin, 'made')), BOOT_MS);
    const vmi = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/made`)).body;
    expect(vmi.spec.domain.memory.guest).toBe('512Mi');
    expect(await virtctl(['stop', 'made'])).toMatchObject({ code: 0 });
  });

  it('every command prints its usage for --help (exit 0); version, soft-reboot, migrate and restart answer as virtctl does', async () => {
    const commands = ['start', 'stop', 'restart', 'migrate', 'migrate-cancel', 'pause', 'unpause', 'soft-reboot', 'console', 'vnc', 'port-forward', 'ssh', 'scp', 'expose', 'guestosinfo', 'userlist', 'fslist', 'create', 'addvolume', 'removevolume', 'image-upload', 'version'];
    const helps = await Promise.all(commands.map((cmd) => virtctl([cmd, '--help'])));
    commands.forEach((cmd, i) => {
      expect({ cmd, code: helps[i].code, err: helps[i].err }).toEqual({ cmd, code: 0, err: '' });
      expect(helps[i].out, cmd).toMatch(new RegExp(`\\nUsage:\\n  virtctl ${cmd}\\b`));
    });
    const vmiUID = async () => (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/demo`)).body?.metadata?.uid as string | undefined;
    const table: { args: string[]; out: RegExp; then?: () => Promise<unknown> }[] = [
      { args: ['version'], out: /^Client Version: .+\nServer Version: .+\n$/ },
      { args: ['soft-reboot', 'demo'], out: /^VMI demo was scheduled to soft-reboot\n$/ },
      {
        args: ['migrate', 'demo'], out: /^VM demo was scheduled to migrate\n$/,
        then: () => until('the migration Succeeded', async () => {
          const migs = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`)).body?.items ?? [];
          return migs.some((m: { spec: { vmiName: string }; status?: { phase?: string } }) => m.spec.vmiName === 'demo' && m.status?.phase === 'Succeeded');
        }, 120_000),
      },
      {
        args: ['restart', 'demo'], out: /^VM demo was scheduled to restart\n$/,
        then: async () => {
          const before = await vmiUID();
          return until('demo Running again as a new VMI', async () => { const s = await readState(c.admin, 'demo'); return isRunning(s) && s.vmiUID !== before; }, BOOT_MS);
        },
      },
    ];
    for (const row of table) {
      const run = await virtctl(row.args);
      expect({ args: row.args, code: run.code, err: run.err }).toEqual({ args: row.args, code: 0, err: '' });
      expect(run.out).toMatch(row.out);
      await row.then?.();
    }
  });

  it('stop → the VMI is gone and the VM Stopped', async () => {
    expect(await virtctl(['stop', 'demo'])).toEqual({ code: 0, out: 'VM demo was scheduled to stop\n', err: '' });
    await until('demo Stopped', async () => { const s = await readState(c.admin, 'demo'); return !s.vmiUID && s.printable === 'Stopped'; }, 90_000);
  });
});

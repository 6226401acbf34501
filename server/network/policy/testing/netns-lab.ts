/**
 * Real kernel objects for the NetworkPolicy integration test: bridges with a gateway address and
 * network namespaces with a veth into a bridge (the shape of the embedded pod network), each
 * namespace running one small node process (a TCP server or a probe that dials on request).
 * Names carry a random tag so parallel runs do not clash; `destroy` removes everything.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { run, tryRun } from '../../../node/network/ip-command';

/** the child program: `server <port>` answers every connection with `hi from <name>`; `probe` dials on request */
const CHILD = `
const net = require('node:net');
const [mode, arg] = process.argv.slice(1);
if (mode === 'server') {
  net.createServer((s) => s.end('hi from ' + process.env.LAB_NAME + '\\n')).listen(Number(arg), () => console.log('ready'));
} else {
  console.log('ready');
  require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const [host, port, ms] = line.split(' ');
    const s = net.connect({ host, port: Number(port), timeout: Number(ms) });
    let got = '';
    const done = (r) => { s.destroy(); console.log(r); };
    s.on('data', (d) => (got += d));
    s.on('end', () => done('ok ' + got.trim()));
    s.on('timeout', () => done('ETIMEDOUT'));
    s.on('error', (e) => done(e.code || 'error'));
  });
}`;

export interface LabPod {
  name: string;
  ip: string;
  netns: string;
}

class ChildLines {
  private readonly waiting: ((line: string) => void)[] = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
  }

  next(): Promise<string> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

export class NetnsLab {
  readonly tag = randomBytes(3).toString('hex').slice(0, 5);
  private readonly bridges: string[] = [];
  private readonly namespaces: string[] = [];
  private readonly children: ChildProcessWithoutNullStreams[] = [];
  private readonly probes = new Map<string, ChildLines>();

  /** a bridge `kvtp<tag><i>` holding `<subnet>.1/24` */
  addBridge(subnet: string): string {
    const name = `kvtp${this.tag}${this.bridges.length}`;
    run('ip', ['link', 'add', name, 'type', 'bridge']);
    this.bridges.push(name);
    run('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', name]);
    run('ip', ['link', 'set', name, 'up']);
    return name;
  }

  /** a namespace with eth0 = `<subnet>.<host>/24` on `bridge`, default route via `<subnet>.1` */
  addPod(name: string, bridge: string, subnet: string, host: number): LabPod {
    const netns = `kvtp-${this.tag}-${name}`;
    const veth = `kvtp${this.tag}${name}`;
    const ip = `${subnet}.${host}`;
    run('ip', ['netns', 'add', netns]);
    this.namespaces.push(netns);
    run('ip', ['link', 'add', `${veth}h`, 'type', 'veth', 'peer', 'name', `${veth}p`]);
    run('ip', ['link', 'set', `${veth}p`, 'netns', netns]);
    const inNs = (...args: string[]) => run('ip', ['netns', 'exec', netns, 'ip', ...args]);
    inNs('link', 'set', `${veth}p`, 'name', 'eth0');
    inNs('addr', 'add', `${ip}/24`, 'dev', 'eth0');
    inNs('link', 'set', 'eth0', 'up');
    inNs('link', 'set', 'lo', 'up');
    inNs('route', 'add', 'default', 'via', `${subnet}.1`);
    run('ip', ['link', 'set', `${veth}h`, 'master', bridge]);
    run('ip', ['link', 'set', `${veth}h`, 'up']);
    return { name, ip, netns };
  }

  private async start(pod: LabPod, args: string[]): Promise<ChildLines> {
    const child = spawn('ip', ['netns', 'exec', pod.netns, process.execPath, '-e', CHILD, ...args], { env: { ...process.env, LAB_NAME: pod.name } });
    this.children.push(child);
    const lines = new ChildLines(child);
    const ready = await lines.next();
    if (ready !== 'ready') throw new Error(`${pod.name}: ${ready}`);
    return lines;
  }

  async serve(pod: LabPod, port: number): Promise<void> {
    await this.start(pod, ['server', String(port)]);
  }

  /** what a TCP connection from `from` to ip:port gets: `ok <greeting>`, ECONNREFUSED, ETIMEDOUT … */
  async dial(from: LabPod, ip: string, port: number, timeoutMs = 1000): Promise<string> {
    let probe = this.probes.get(from.name);
    if (!probe) {
      probe = await this.start(from, ['probe']);
      this.probes.set(from.name, probe);
    }
    const answer = probe.next();
    probe.child.stdin.write(`${ip} ${port} ${timeoutMs}\n`);
    return answer;
  }

  destroy(): void {
    for (const c of this.children) c.kill('SIGKILL');
    for (const ns of this.namespaces) tryRun('ip', ['netns', 'del', ns]);
    for (const br of this.bridges) tryRun('ip', ['link', 'del', br]);
  }
}

/** two free /24s inside 10.244.0.0/16 (no route on this host yet), as `10.244.N` prefixes */
export function freeSubnets(count: number): string[] {
  const routes = run('ip', ['-4', 'route', 'show']);
  const out: string[] = [];
  const start = 150 + Math.floor(Math.random() * 60);
  for (let n = start; out.length < count && n < 250; n++) {
    if (!routes.includes(`10.244.${n}.0/24`)) out.push(`10.244.${n}`);
  }
  return out;
}

/**
 * Where the launcher reaches a guest's TCP or UDP port (for the `portforward` subresource). On QEMU's user
 * network the guest is only reachable through a host forward: a declared port already has one
 * (127.0.0.1:<host port> in the Pod); any other port gets one added at runtime with HMP
 * `hostfwd_add`, kept for later sessions. A guest on a tap binding is reached at its address.
 */
import type { QmpClient } from './qmp-client';
import type { HostPort } from './protocol';

export interface GuestEndpoint { host: string; port: number }
export type GuestProtocol = 'tcp' | 'udp';

export interface GuestPortsSource {
  /** host forwards the converter created for declared ports */
  hostPorts(): HostPort[];
  /** the QEMU netdev id of the first pod interface, when the guest is on the user network */
  userNetdev(): string | undefined;
  /** the guest's own address when it is directly reachable (tap bindings) */
  directAddress(): string | undefined;
  qmp(): QmpClient;
  freePort(): Promise<number>;
}

export class GuestPortError extends Error {}

const GUEST_ADDRESS = '10.0.2.2';

export class GuestPorts {
  /** `tcp/22` → the host forward added for it */
  private readonly added = new Map<string, number>();

  constructor(private readonly src: GuestPortsSource) {}

  async endpoint(port: number, protocol: GuestProtocol = 'tcp'): Promise<GuestEndpoint> {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new GuestPortError(`invalid port ${port}`);
    const direct = this.src.directAddress();
    if (direct) return { host: direct, port };
    const declared = this.src.hostPorts().find((p) => p.protocol === protocol.toUpperCase() && p.guestPort === port);
    if (declared) return { host: '127.0.0.1', port: declared.hostPort };
    const key = `${protocol}/${port}`;
    const known = this.added.get(key);
    if (known) return { host: '127.0.0.1', port: known };
    const netdev = this.src.userNetdev();
    if (!netdev) throw new GuestPortError('the guest has no masquerade interface on the pod network (a bridge-bound guest holds the Pod IP: connect to it there)');
    const hostPort = await this.src.freePort();
    const out = await this.src.qmp().execute('human-monitor-command', { 'command-line': `hostfwd_add ${netdev} ${protocol}:127.0.0.1:${hostPort}-${GUEST_ADDRESS}:${port}` });
    if (typeof out === 'string' && out.trim()) throw new GuestPortError(`cannot forward port ${port}: ${out.trim()}`);
    this.added.set(key, hostPort);
    return { host: '127.0.0.1', port: hostPort };
  }
}

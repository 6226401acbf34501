/** Feeding a script to `nft -f -` without blocking the event loop, and the bridge netfilter switch. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function nftApply(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('nft', ['-f', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`nft -f -: ${stderr.trim() || `exit ${code}`}`))));
    child.stdin.end(script);
  });
}

const BRIDGE_NF = '/proc/sys/net/bridge/bridge-nf-call-iptables';

/**
 * Pods on one node bridge talk through the bridge, which passes the inet forward hook only with
 * br_netfilter's bridge-nf-call-iptables on. Turns it on where the switch exists; says why not.
 */
export function ensureBridgedTrafficFiltered(): string | undefined {
  if (!existsSync(BRIDGE_NF)) return 'br_netfilter is not loaded: pods on the same node bridge are not filtered';
  try {
    if (readFileSync(BRIDGE_NF, 'utf8').trim() !== '1') writeFileSync(BRIDGE_NF, '1');
    return undefined;
  } catch (err) {
    return `cannot turn on ${BRIDGE_NF}: ${(err as Error).message}`;
  }
}

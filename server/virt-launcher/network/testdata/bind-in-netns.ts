/**
 * Test entry: run inside a Pod-like namespace (`ip netns exec`), bind the VMI's pod interface as the
 * launcher does, print {setupMs, kind, mac, tapOwner: [uid, gid] from sysfs (-1: none)} and keep the DHCP server up until stdin closes.
 */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { setUpPodNetwork } from '../pod-binding';
import type { LauncherVMI } from '../../vmi-types';

const [vmiJson, podIP, owner] = process.argv.slice(2);
const [uid, gid] = (owner ?? '').split(':').map(Number);
const tapOwner = owner ? { uid, gid } : undefined;
const net = await setUpPodNetwork({ vmi: JSON.parse(vmiJson) as LauncherVMI, podIP, launcherPorts: [49152, 49153], log: pino({ enabled: process.env.KV_TEST_LOG === '1' }, pino.destination(2)), tapOwner, vhost: false });
const sys = (f: string) => Number(readFileSync(`/sys/class/net/tap0/${f}`, 'utf8').trim());
process.stdout.write(`${JSON.stringify({ setupMs: net?.setupMs, kind: net?.kind, mac: net?.tap.mac, tapOwner: [sys('owner'), sys('group')] })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));

/**
 * Test entry: run inside a Pod-like namespace (`ip netns exec`), bind the VMI's pod interface as the
 * launcher does, print {setupMs, kind, mac} and keep the DHCP server up until stdin closes.
 */
import pino from 'pino';
import { setUpPodNetwork } from '../pod-binding';
import type { LauncherVMI } from '../../vmi-types';

const [vmiJson, podIP] = process.argv.slice(2);
const net = await setUpPodNetwork({ vmi: JSON.parse(vmiJson) as LauncherVMI, podIP, launcherPorts: [49152, 49153], log: pino({ enabled: process.env.KV_TEST_LOG === '1' }, pino.destination(2)) });
process.stdout.write(`${JSON.stringify({ setupMs: net?.setupMs, kind: net?.kind, mac: net?.tap.mac })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));

/** Control and console sockets, graphics, guest agent channel, balloon, inputs, rng, watchdog. */
import { join } from 'node:path';
import type { ArgsPart, ConverterInput } from './converter-types';
import { POD_FILES } from '../protocol';
import { invalid } from './converter-error';
import { checkName, escapeOptValue, renderJson, renderOpts, userAlias } from './qemu-opts';
import type { Devices } from '../vmi-types';

export const GUEST_AGENT_CHANNEL = 'org.qemu.guest_agent.0';
/** QEMU id of the agent's port: VSERPORT_CHANGE events carry it. */
export const GUEST_AGENT_PORT_ID = 'channel0';
const WATCHDOG_ACTIONS = ['reset', 'poweroff', 'shutdown', 'pause', 'none'];

function socketChardev(id: string, path: string): string {
  return renderOpts('socket', { id, path, server: true, wait: false });
}

/** QMP monitor, serial console, VNC + VGA (or no display), guest agent virtio-serial port. */
export function renderConsoleArgs(input: ConverterInput): string[] {
  const dir = input.podDir;
  const devices = input.vmi.spec.domain.devices ?? {};
  const args = [
    '-chardev', socketChardev('qmp', join(dir, POD_FILES.qmpSocket)), '-mon', 'chardev=qmp,mode=control',
    '-display', 'none',
  ];
  if (devices.autoattachSerialConsole !== false) {
    args.push('-chardev', socketChardev('serial0', join(dir, POD_FILES.qemuSerialSocket)), '-serial', 'chardev:serial0');
  }
  if (devices.autoattachGraphicsDevice !== false) {
    args.push('-vnc', `unix:${escapeOptValue(join(dir, POD_FILES.vncSocket))}`);
    args.push('-device', renderJson({ driver: 'VGA', id: 'video0', vgamem_mb: 16 }));
  }
  args.push(
    '-device', renderJson({ driver: 'virtio-serial-pci', id: 'virtio-serial0' }),
    '-chardev', socketChardev('qga0', join(dir, POD_FILES.guestAgentSocket)),
    '-device', renderJson({ driver: 'virtserialport', id: GUEST_AGENT_PORT_ID, bus: 'virtio-serial0.0', chardev: 'qga0', name: GUEST_AGENT_CHANNEL }),
  );
  return args;
}

export interface DevicesPart extends ArgsPart { usb: boolean }

/** balloon (stats for metrics), inputs, rng, watchdog. */
export function renderExtraDeviceArgs(input: ConverterInput): DevicesPart {
  const devices = input.vmi.spec.domain.devices ?? {};
  const args: string[] = [];
  let usb = false;
  if (devices.autoattachMemBalloon !== false) args.push('-device', renderJson({ driver: 'virtio-balloon-pci', id: 'balloon0', 'free-page-reporting': true }));
  for (const [i, inp] of (devices.inputs ?? []).entries()) {
    const name = checkName(inp.name, `spec.domain.devices.inputs[${i}].name`);
    if ((inp.type ?? 'tablet') !== 'tablet') throw invalid(`spec.domain.devices.inputs[${i}].type: only tablet is supported`);
    const bus = inp.bus ?? 'usb';
    if (bus !== 'usb' && bus !== 'virtio') throw invalid(`spec.domain.devices.inputs[${i}].bus: must be usb or virtio`);
    usb ||= bus === 'usb';
    args.push('-device', renderJson(bus === 'usb' ? { driver: 'usb-tablet', id: userAlias(name), bus: 'usb.0' } : { driver: 'virtio-tablet-pci', id: userAlias(name) }));
  }
  if (devices.rng) args.push('-object', renderJson({ 'qom-type': 'rng-random', id: 'rng0', filename: '/dev/urandom' }), '-device', renderJson({ driver: 'virtio-rng-pci', id: 'rng', rng: 'rng0' }));
  if (devices.watchdog) {
    const name = checkName(devices.watchdog.name, 'spec.domain.devices.watchdog.name');
    const action = devices.watchdog.i6300esb?.action ?? 'reset';
    if (!WATCHDOG_ACTIONS.includes(action)) throw invalid(`spec.domain.devices.watchdog.i6300esb.action: invalid action ${JSON.stringify(action)}`);
    args.push('-device', renderJson({ driver: 'i6300esb', id: userAlias(name) }), '-action', `watchdog=${action}`);
  }
  args.push(...renderSoundArgs(devices.sound));
  return { args, usb };
}

/** spec.domain.devices.sound: an HDA (ich9, KubeVirt's default) or AC97 card, with no host audio behind it */
export function renderSoundArgs(sound: Devices['sound']): string[] {
  if (!sound) return [];
  const name = checkName(sound.name, 'spec.domain.devices.sound.name');
  const model = sound.model ?? 'ich9';
  if (model !== 'ich9' && model !== 'ac97') throw invalid(`spec.domain.devices.sound.model: must be ich9 or ac97, not ${JSON.stringify(model)}`);
  const backend = ['-audiodev', 'none,id=audio0'];
  if (model === 'ac97') return [...backend, '-device', renderJson({ driver: 'AC97', id: userAlias(name), audiodev: 'audio0' })];
  return [...backend, '-device', renderJson({ driver: 'ich9-intel-hda', id: userAlias(name) }), '-device', renderJson({ driver: 'hda-duplex', id: `${userAlias(name)}-codec`, audiodev: 'audio0' })];
}

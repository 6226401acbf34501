/**
 * The VMI → QEMU converter (KubeVirt's domain converter, without libvirt). Pure: it reads the
 * VMI and the injected image lookup and returns the argument array, the files to create
 * first and what the status will report; it throws ConverterError for specs it refuses.
 */
import { isAbsolute, join } from 'node:path';
import type { ConverterInput, ConverterOutput, FileToCreate } from './converter-types';
import { POD_FILES } from '../protocol';
import { invalid } from './converter-error';
import { escapeOptValue, renderJson } from './qemu-opts';
import { renderCpuArgs, renderMachineArgs, renderMemoryArgs, renderVirtioMemArgs, resolveMachine, resolveMemoryBytes, resolveTopology } from './qemu-args-compute';
import { isSecureBoot, renderFirmwareArgs, renderIdentityArgs } from './qemu-args-firmware';
import { renderDiskArgs } from './qemu-args-disks';
import { renderNetArgs } from './qemu-args-net';
import { renderConsoleArgs, renderExtraDeviceArgs } from './qemu-args-devices';
import { clockGlobals, renderRtc } from './qemu-args-clock';
import { planTPM, renderTPMArgs } from './qemu-args-tpm';

export const QEMU_BINARY = 'qemu-system-x86_64';

export { ConverterError, CONVERTER_REASONS } from './converter-error';
export type { ConverterInput, ConverterOutput, FileToCreate, ImageEntry } from './converter-types';

/** `<namespace>_<name>`, KubeVirt's domain name. */
export function domainName(input: ConverterInput): string {
  const { name, namespace } = input.vmi.metadata;
  if (typeof name !== 'string' || name === '') throw invalid('metadata.name: required');
  return `${namespace ?? 'default'}_${name}`;
}

/**
 * seccomp as libvirt sets it for KubeVirt: obsolete syscalls, setuid & co., fork/exec and
 * scheduler/affinity changes are refused; a compromised QEMU cannot spawn a shell or regain root.
 */
export const SANDBOX = 'on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny';

export function renderQemuArgs(input: ConverterInput): ConverterOutput {
  if (!isAbsolute(input.podDir)) throw invalid(`pod dir ${JSON.stringify(input.podDir)} is not absolute`);
  if (!input.vmi?.spec?.domain) throw invalid('spec.domain: required');
  const machine = resolveMachine(input);
  const firmware = renderFirmwareArgs(input);
  const disks = renderDiskArgs(input, { ahciBus: machine.startsWith('pc-q35') || machine === 'q35' ? 'ide' : 'ahci0' });
  const net = renderNetArgs(input);
  const extra = renderExtraDeviceArgs(input);
  const tpm = planTPM(input);
  const files: FileToCreate[] = [...(firmware.files ?? []), ...(disks.files ?? [])];
  const args = [
    '-name', `guest=${escapeOptValue(domainName(input))},debug-threads=on`,
    // -S: the launcher continues once QMP is up (or not: startStrategy Paused);
    // -no-shutdown: a guest poweroff stops QEMU and the launcher decides (quit, or reset for a soft reboot).
    '-no-user-config', '-nodefaults', '-S', '-no-shutdown',
    '-sandbox', SANDBOX,
    ...renderMachineArgs(input, { secureBoot: isSecureBoot(input) }),
    ...renderCpuArgs(input),
    ...renderMemoryArgs(input),
    ...renderIdentityArgs(input),
    ...firmware.args,
    '-rtc', renderRtc(input), ...clockGlobals(input), '-boot', 'strict=on',
    '-pidfile', join(input.podDir, POD_FILES.pidFile),
    '-msg', 'timestamp=on',
    ...renderConsoleArgs(input),
  ];
  if (!machine.startsWith('pc-q35') && machine !== 'q35' && disks.args.some((a) => a.includes('"ahci0.'))) {
    args.push('-device', renderJson({ driver: 'ich9-ahci', id: 'ahci0' }));
  }
  if (disks.usb || extra.usb) args.push('-device', renderJson({ driver: 'qemu-xhci', id: 'usb' }));
  args.push(...disks.args, ...net.args, ...extra.args, ...renderTPMArgs(tpm, machine), ...renderVirtioMemArgs(input));
  if (input.incoming) args.push('-incoming', 'defer');
  return {
    binary: input.binary ?? QEMU_BINARY,
    args,
    files,
    machine,
    hostPorts: net.hostPorts,
    sharedDisks: disks.sharedDisks,
    tpm,
    interfaces: net.interfaces,
    vcpus: resolveTopology(input).vcpus,
    memoryBytes: resolveMemoryBytes(input),
  };
}

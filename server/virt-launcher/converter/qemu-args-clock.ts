/**
 * The guest's clock and Hyper-V enlightenments, as KubeVirt's domain converter maps
 * spec.domain.clock and spec.domain.features.hyperv onto libvirt (and libvirt onto QEMU):
 * - clock.utc.offsetSeconds / clock.timezone: the RTC starts at UTC plus that offset (the zone's
 *   offset at start; QEMU has no zone of its own, so a DST change while running is not followed);
 *   without either, UTC.
 * - timer.rtc.tickPolicy catchup → driftfix=slew (the default), delay → none; track guest → clock=vm.
 * - timer.hpet/pit.present false → no HPET/PIT; timer.pit.tickPolicy → the in-kernel PIT's lost-tick
 *   policy (KVM only); timer.kvm.present false → no kvmclock; timer.hyperv → hv-time.
 * - features.hyperv.* → QEMU's hv-* CPU flags. Under TCG, hv-vpindex is left out: QEMU refuses it
 *   without KVM ("kernel doesn't allow setting HyperV VP_INDEX"); docs/differences.md says so.
 */
import type { ConverterInput } from './converter-types';
import { invalid } from './converter-error';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
/** a KubeVirt FeatureState: present and not `enabled: false` */
const on = (v: unknown) => v !== undefined && v !== null && obj(v).enabled !== false;
const DEFAULT_SPINLOCKS = 4096;

/** offset of `timeZone` from UTC at `at`, in seconds (Intl's tz database) */
function zoneOffsetSeconds(timeZone: string, at: Date): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  } catch {
    throw invalid(`spec.domain.clock.timezone: unknown time zone ${JSON.stringify(timeZone)}`);
  }
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 1000);
}

/** QEMU's -rtc value */
export function renderRtc(input: ConverterInput): string {
  const clock = obj(input.vmi.spec.domain.clock);
  const rtc = obj(obj(clock.timer).rtc);
  const now = input.now ?? new Date();
  let offset = 0;
  if (typeof clock.timezone === 'string') offset = zoneOffsetSeconds(clock.timezone, now);
  else if (clock.utc !== undefined) {
    const s = obj(clock.utc).offsetSeconds ?? 0;
    if (!Number.isInteger(s)) throw invalid('spec.domain.clock.utc.offsetSeconds: must be an integer');
    offset = s as number;
  }
  const base = offset === 0 ? 'utc' : new Date(Math.floor(now.getTime() / 1000) * 1000 + offset * 1000).toISOString().slice(0, 19);
  const parts = [`base=${base}`];
  if (rtc.track === 'guest') parts.push('clock=vm');
  parts.push(`driftfix=${rtc.tickPolicy === 'delay' ? 'none' : 'slew'}`);
  return parts.join(',');
}

/** -machine options the clock adds (an HPET or PIT switched off) */
export function clockMachineOptions(input: ConverterInput): string[] {
  const timer = obj(obj(input.vmi.spec.domain.clock).timer);
  return [...(obj(timer.hpet).present === false ? ['hpet=off'] : []), ...(obj(timer.pit).present === false ? ['pit=off'] : [])];
}

const PIT_POLICIES: Record<string, string> = { delay: 'delay', catchup: 'slew', discard: 'discard' };

/** -global settings: the in-kernel PIT's lost-tick policy (KVM only: TCG's PIT has no such policy) */
export function clockGlobals(input: ConverterInput): string[] {
  const policy = obj(obj(obj(input.vmi.spec.domain.clock).timer).pit).tickPolicy;
  if (policy === undefined || input.accel !== 'kvm') return [];
  if (typeof policy !== 'string' || !PIT_POLICIES[policy]) throw invalid(`spec.domain.clock.timer.pit.tickPolicy: must be delay, catchup or discard, not ${JSON.stringify(policy)}`);
  return ['-global', `kvm-pit.lost_tick_policy=${PIT_POLICIES[policy]}`];
}

const HYPERV_FLAGS: [key: string, flag: string][] = [
  ['relaxed', 'hv-relaxed'], ['vapic', 'hv-vapic'], ['vpindex', 'hv-vpindex'], ['runtime', 'hv-runtime'],
  ['synic', 'hv-synic'], ['reset', 'hv-reset'], ['frequencies', 'hv-frequencies'], ['reenlightenment', 'hv-reenlightenment'],
  ['tlbflush', 'hv-tlbflush'], ['ipi', 'hv-ipi'], ['evmcs', 'hv-evmcs'],
];
const KVM_ONLY = new Set(['hv-vpindex']);

function hypervFlags(input: ConverterInput): string[] {
  const hv = obj(obj(input.vmi.spec.domain.features).hyperv);
  const flags = HYPERV_FLAGS.filter(([key, flag]) => on(hv[key]) && (input.accel === 'kvm' || !KVM_ONLY.has(flag))).map(([, flag]) => `${flag}=on`);
  if (on(hv.spinlocks)) {
    const n = obj(hv.spinlocks).spinlocks ?? DEFAULT_SPINLOCKS;
    if (!Number.isInteger(n) || (n as number) < 4096) throw invalid('spec.domain.features.hyperv.spinlocks.spinlocks: must be at least 4096');
    flags.push(`hv-spinlocks=0x${(n as number).toString(16)}`);
  }
  if (on(hv.synictimer)) flags.push('hv-stimer=on', ...(on(obj(hv.synictimer).direct) ? ['hv-stimer-direct=on'] : []));
  if (on(hv.vendorid)) {
    const id = obj(hv.vendorid).vendorid;
    if (typeof id !== 'string' || !/^[A-Za-z0-9]{1,12}$/.test(id)) throw invalid('spec.domain.features.hyperv.vendorid.vendorid: 1 to 12 letters or digits');
    flags.push(`hv-vendor-id=${id}`);
  }
  return flags;
}

function timerFlags(input: ConverterInput): string[] {
  const timer = obj(obj(input.vmi.spec.domain.clock).timer);
  const flags: string[] = [];
  if (timer.hyperv !== undefined && obj(timer.hyperv).present !== false) flags.push('hv-time=on');
  if (obj(timer.kvm).present === false) flags.push('kvmclock=off');
  return flags;
}

/** -cpu flags: Hyper-V enlightenments and the clock's timers */
export function cpuFeatureFlags(input: ConverterInput): string[] {
  return [...hypervFlags(input), ...timerFlags(input)];
}

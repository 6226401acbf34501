/**
 * VirtualMachineInstancePresets applied to a new VMI (KubeVirt's preset mutator, pure): the
 * presets of the VMI's namespace whose selector matches its labels are merged into
 * spec.domain, field by field, filling only what the VMI leaves unset. A field both set
 * differently is a conflict: the rest of that preset still applies, and a preset of which nothing
 * applies is skipped ("Unable to apply VirtualMachineInstancePreset"). Each applied preset is
 * named in an annotation. Two matching presets that conflict with each other refuse the VMI.
 */
import { labelSelectorError, parseQuantity, selectorMatches, type LabelSelector } from '../../../../lib/kubevirt';
import { isObject, objectAt, type JsonObject } from '../json-shape';

export const PRESET_EXCLUSION_ANNOTATION = 'virtualmachineinstancepresets.admission.kubevirt.io/exclude';
export const presetAnnotation = (name: string) => `virtualmachinepreset.kubevirt.io/${name}`;
export const PRESET_ANNOTATION_VALUE = 'kubevirt.io/v1';

export interface PresetLike { metadata?: { name?: string; namespace?: string }; spec?: { selector?: LabelSelector; domain?: JsonObject } }

export interface PresetOutcome {
  /** names of the presets applied (annotated), in order */
  applied: string[];
  /** presets of which some settings conflicted with the VMI: KubeVirt's warning, one per preset */
  partial: string[];
  /** presets skipped because every setting conflicted: the message for the VMI's Warning event */
  skipped: string[];
  /** two matching presets conflict: the VMI is refused with this message */
  refused?: string;
}

/** domain paths a preset may set; a path present in both and different is a conflict */
const FIELDS: { path: string[]; label: string }[] = [
  { path: ['cpu'], label: 'spec.cpu' },
  { path: ['memory'], label: 'spec.memory' },
  { path: ['machine'], label: 'spec.machine' },
  { path: ['firmware'], label: 'spec.firmware' },
  { path: ['features'], label: 'spec.features' },
  { path: ['devices', 'watchdog'], label: 'spec.devices.watchdog' },
  { path: ['ioThreadsPolicy'], label: 'spec.ioThreadsPolicy' },
];

const at = (o: JsonObject, path: string[]): unknown => path.reduce<unknown>((cur, k) => (isObject(cur) ? cur[k] : undefined), o);
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x) => (isObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const sameQuantity = (a: unknown, b: unknown) => { const x = parseQuantity(a); return x !== undefined ? x === parseQuantity(b) : same(a, b); };

function setAt(o: JsonObject, path: string[], value: unknown): void {
  let cur = o;
  for (const k of path.slice(0, -1)) cur = isObject(cur[k]) ? cur[k] : (cur[k] = {});
  cur[path[path.length - 1]] = structuredClone(value);
}

/** KubeVirt's checkMergeConflicts: what the preset and the VMI domain both set differently */
export function mergeConflicts(preset: JsonObject, domain: JsonObject): string[] {
  const out: string[] = [];
  const reqs = objectAt(objectAt(preset.resources).requests);
  const have = objectAt(objectAt(domain.resources).requests);
  for (const [k, v] of Object.entries(reqs)) {
    if (k in have && !sameQuantity(v, have[k])) out.push(`spec.resources.requests[${k}]: ${String(v)} != ${String(have[k])}`);
  }
  for (const f of FIELDS) {
    const a = at(preset, f.path);
    const b = at(domain, f.path);
    if (a !== undefined && b !== undefined && !same(a, b)) out.push(`${f.label}: ${canonical(a)} != ${canonical(b)}`);
  }
  const pc = objectAt(preset.clock);
  const vc = objectAt(domain.clock);
  if (isObject(preset.clock) && isObject(domain.clock)) {
    const offset = (c: JsonObject) => ({ utc: c.utc, timezone: c.timezone });
    if (!same(offset(pc), offset(vc))) out.push(`spec.clock.clockoffset: ${canonical(offset(pc))} != ${canonical(offset(vc))}`);
    if (pc.timer !== undefined && vc.timer !== undefined && !same(pc.timer, vc.timer)) out.push(`spec.clock.timer: ${canonical(pc.timer)} != ${canonical(vc.timer)}`);
  }
  return out;
}

/** KubeVirt's mergeDomainSpec: fills what the VMI leaves unset; true when some preset setting now holds */
function mergeDomain(preset: JsonObject, domain: JsonObject): boolean {
  let applied = false;
  const reqs = objectAt(objectAt(preset.resources).requests);
  if (Object.keys(reqs).length) {
    const resources = isObject(domain.resources) ? domain.resources : (domain.resources = {});
    if (!isObject(resources.requests)) resources.requests = structuredClone(reqs);
    const have = objectAt(resources.requests);
    if (Object.entries(reqs).every(([k, v]) => sameQuantity(v, have[k]))) applied = true;
  }
  for (const f of FIELDS) {
    const want = at(preset, f.path);
    if (want === undefined) continue;
    if (at(domain, f.path) === undefined) setAt(domain, f.path, want);
    if (same(at(domain, f.path), want)) applied = true;
  }
  if (isObject(preset.clock)) {
    const { timer, ...offset } = preset.clock;
    if (!isObject(domain.clock)) domain.clock = structuredClone(offset);
    const clock = objectAt(domain.clock);
    if (same(clock, preset.clock)) applied = true;
    if (timer !== undefined) {
      if (clock.timer === undefined) clock.timer = structuredClone(timer);
      if (same(clock.timer, timer)) applied = true;
    }
  }
  return applied;
}

const aggregate = (errs: string[]) => (errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);

/** the presets that select the VMI, by name; an invalid selector refuses the VMI as KubeVirt does */
export function matchingPresets(presets: PresetLike[], labels: Record<string, string> | undefined): PresetLike[] | string {
  const out: PresetLike[] = [];
  for (const p of [...presets].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))) {
    const selector = p.spec?.selector ?? {};
    const err = labelSelectorError(selector);
    if (err) return err;
    if (selectorMatches(selector, labels)) out.push(p);
  }
  return out;
}

/** applies the matching presets to `vmi` (mutated in place) and says what happened */
export function applyPresets(vmi: JsonObject, presets: PresetLike[]): PresetOutcome {
  const outcome: PresetOutcome = { applied: [], partial: [], skipped: [] };
  const meta = isObject(vmi.metadata) ? vmi.metadata : (vmi.metadata = {});
  const annotations = objectAt(meta.annotations);
  if (annotations[PRESET_EXCLUSION_ANNOTATION] === 'true') return outcome;
  const matching = matchingPresets(presets, objectAt(meta.labels) as Record<string, string>);
  if (typeof matching === 'string') return { ...outcome, refused: matching };
  const between: string[] = [];
  matching.forEach((p, i) => matching.slice(0, i).forEach((q) => {
    const c = mergeConflicts(objectAt(p.spec?.domain), objectAt(q.spec?.domain));
    if (c.length) between.push(`presets '${p.metadata?.name}' and '${q.metadata?.name}' conflict: ${aggregate(c)}`);
  }));
  if (between.length) return { ...outcome, refused: `VirtualMachinePresets cannot be applied due to conflicts: ${aggregate(between)}` };
  const spec = isObject(vmi.spec) ? vmi.spec : (vmi.spec = {});
  const domain = isObject(spec.domain) ? spec.domain : (spec.domain = {});
  for (const p of matching) {
    const name = p.metadata?.name ?? '';
    const presetDomain = objectAt(p.spec?.domain);
    const conflicts = mergeConflicts(presetDomain, domain);
    if (mergeDomain(presetDomain, domain)) {
      outcome.applied.push(name);
      if (conflicts.length) outcome.partial.push(`Some settings were not applied for VirtualMachineInstancePreset '${name}': ${aggregate(conflicts)}`);
      meta.annotations = { ...objectAt(meta.annotations), [presetAnnotation(name)]: PRESET_ANNOTATION_VALUE };
    } else {
      outcome.skipped.push(`Unable to apply VirtualMachineInstancePreset '${name}': ${conflicts.length ? aggregate(conflicts) : 'it sets nothing'}`);
    }
  }
  return outcome;
}

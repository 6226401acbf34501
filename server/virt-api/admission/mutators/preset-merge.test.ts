import { describe, expect, it } from 'vitest';
import { applyPresets, mergeConflicts, PRESET_EXCLUSION_ANNOTATION, type PresetLike } from './preset-merge';
import { mutateVMICreate } from './vmi-mutator';
import { config } from '../test-fixtures';
import type { JsonObject } from '../json-shape';
import type { LabelSelector } from '../../../../lib/kubevirt';

const preset = (name: string, domain: JsonObject, selector: LabelSelector = { matchLabels: { flavor: 'small' } }): PresetLike =>
  ({ metadata: { name, namespace: 'default' }, spec: { selector, domain } });
const vmi = (domain: JsonObject = {}, labels: Record<string, string> = { flavor: 'small' }, annotations?: Record<string, string>): JsonObject => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
  metadata: { name: 'v', namespace: 'default', labels, ...(annotations ? { annotations } : {}) },
  spec: { domain: { devices: {}, ...domain } },
});
const domainOf = (v: JsonObject) => (v.spec as { domain: JsonObject }).domain;
const annotationsOf = (v: JsonObject) => (v.metadata as { annotations?: Record<string, string> }).annotations ?? {};

describe('applyPresets', () => {
  it.each([
    { name: 'memory request filled', preset: { resources: { requests: { memory: '128Mi' } } }, vmi: {}, want: { resources: { requests: { memory: '128Mi' } } } },
    { name: 'cpu filled', preset: { cpu: { cores: 2 } }, vmi: {}, want: { cpu: { cores: 2 } } },
    { name: 'guest memory filled', preset: { memory: { guest: '96Mi' } }, vmi: {}, want: { memory: { guest: '96Mi' } } },
    { name: 'firmware and machine filled', preset: { firmware: { serial: 'abc' }, machine: { type: 'q35' } }, vmi: {}, want: { firmware: { serial: 'abc' }, machine: { type: 'q35' } } },
    { name: 'watchdog filled beside existing devices', preset: { devices: { watchdog: { name: 'w', i6300esb: {} } } }, vmi: { devices: { disks: [] } }, want: { devices: { disks: [], watchdog: { name: 'w', i6300esb: {} } } } },
    { name: 'clock offset and timer filled', preset: { clock: { utc: {}, timer: { rtc: {} } } }, vmi: {}, want: { clock: { utc: {}, timer: { rtc: {} } } } },
    { name: 'an equal value counts as applied', preset: { cpu: { cores: 2 } }, vmi: { cpu: { cores: 2 } }, want: { cpu: { cores: 2 } } },
    { name: 'same quantity in another unit is no conflict', preset: { resources: { requests: { memory: '1Gi' } } }, vmi: { resources: { requests: { memory: '1024Mi' } } }, want: { resources: { requests: { memory: '1024Mi' } } } },
  ])('$name', ({ preset: p, vmi: d, want }) => {
    const v = vmi(d);
    const out = applyPresets(v, [preset('small', p)]);
    expect(out).toEqual({ applied: ['small'], partial: [], skipped: [] });
    expect(domainOf(v)).toMatchObject(want);
    expect(annotationsOf(v)).toEqual({ 'virtualmachinepreset.kubevirt.io/small': 'kubevirt.io/v1' });
  });

  it('a preset whose every setting conflicts is skipped with KubeVirt\'s message and leaves the VMI as it was', () => {
    const v = vmi({ cpu: { cores: 4 } });
    const out = applyPresets(v, [preset('small', { cpu: { cores: 2 } })]);
    expect(out.applied).toEqual([]);
    expect(out.skipped).toEqual(["Unable to apply VirtualMachineInstancePreset 'small': spec.cpu: {\"cores\":2} != {\"cores\":4}"]);
    expect(domainOf(v).cpu).toEqual({ cores: 4 });
    expect(annotationsOf(v)).toEqual({});
  });

  it('a partly conflicting preset applies the rest and warns', () => {
    const v = vmi({ cpu: { cores: 4 } });
    const out = applyPresets(v, [preset('small', { cpu: { cores: 2 }, resources: { requests: { memory: '64Mi' } } })]);
    expect(out.applied).toEqual(['small']);
    expect(out.partial[0]).toMatch(/^Some settings were not applied for VirtualMachineInstancePreset 'small': spec.cpu/);
    expect(domainOf(v)).toMatchObject({ cpu: { cores: 4 }, resources: { requests: { memory: '64Mi' } } });
  });

  it('applies only presets whose selector matches, and none to an excluded VMI', () => {
    const v = vmi({}, { flavor: 'big' });
    expect(applyPresets(v, [preset('small', { cpu: { cores: 1 } })]).applied).toEqual([]);
    const excluded = vmi({}, { flavor: 'small' }, { [PRESET_EXCLUSION_ANNOTATION]: 'true' });
    expect(applyPresets(excluded, [preset('small', { cpu: { cores: 1 } })]).applied).toEqual([]);
    expect(domainOf(excluded).cpu).toBeUndefined();
  });

  it('two matching presets that conflict refuse the VMI; compatible ones both apply', () => {
    const refused = applyPresets(vmi(), [preset('a', { cpu: { cores: 1 } }), preset('b', { cpu: { cores: 2 } })]);
    expect(refused.refused).toBe("VirtualMachinePresets cannot be applied due to conflicts: presets 'b' and 'a' conflict: spec.cpu: {\"cores\":2} != {\"cores\":1}");
    const v = vmi();
    expect(applyPresets(v, [preset('b', { resources: { requests: { memory: '64Mi' } } }), preset('a', { cpu: { cores: 1 } })]).applied).toEqual(['a', 'b']);
  });

  it('lists every conflict', () => {
    expect(mergeConflicts({ resources: { requests: { memory: '1Gi', cpu: '1' } }, firmware: { serial: 'x' } }, { resources: { requests: { memory: '2Gi' } }, firmware: { serial: 'y' } }))
      .toEqual(['spec.resources.requests[memory]: 1Gi != 2Gi', 'spec.firmware: {"serial":"x"} != {"serial":"y"}']);
  });
});

describe('the VMI create mutator applies presets before defaults', () => {
  it('patches in the preset memory and annotation, and reports a skipped preset', () => {
    const skipped: string[] = [];
    const v = vmi({ cpu: { cores: 3 } });
    const m = mutateVMICreate(v, { config, now: new Date(), presets: [preset('mem', { resources: { requests: { memory: '64Mi' } } }), preset('cpu', { cpu: { cores: 1 } })], onPresetSkipped: (s) => skipped.push(s) });
    expect(m.patch).toContainEqual({ op: 'add', path: '/spec/domain/resources', value: expect.objectContaining({ requests: { memory: '64Mi' } }) });
    expect(m.patch).toContainEqual(expect.objectContaining({ path: '/metadata/annotations', value: { 'virtualmachinepreset.kubevirt.io/mem': 'kubevirt.io/v1' } }));
    expect(skipped).toEqual([expect.stringMatching(/^Unable to apply VirtualMachineInstancePreset 'cpu'/)]);
    expect(m.warnings).toEqual(skipped);
  });
});

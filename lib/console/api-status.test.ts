import { describe, expect, it } from 'vitest';
import { adviseOnFailure, causesByField, formFieldOf, parseFieldPath, readApiFailure } from './api-status';
import { lineOfField } from './yaml-field-line';

const invalid = {
  kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 422, reason: 'Invalid',
  message: 'admission webhook "virtualmachine-validator.kubevirt.io" denied the request: spec.template.spec.domain.cpu.cores must be greater than 0',
  details: { causes: [{ type: 'FieldValueInvalid', field: 'spec.template.spec.domain.cpu.cores', message: 'must be greater than 0' }, { type: 'FieldValueRequired', message: 'something' }] },
};

describe('readApiFailure', () => {
  it('reads a Status body, as JSON or text', () => {
    expect(readApiFailure(422, invalid)).toMatchObject({ code: 422, reason: 'Invalid', causes: [{ field: 'spec.template.spec.domain.cpu.cores' }, {}] });
    expect(readApiFailure(409, JSON.stringify({ message: 'VM is already running' })).message).toBe('VM is already running');
    expect(readApiFailure(502, 'bad gateway\n').message).toBe('bad gateway');
    expect(readApiFailure(500, '').message).toBe('HTTP 500');
  });
  it('groups causes by field', () => {
    expect(causesByField(readApiFailure(422, invalid))).toEqual({ 'spec.template.spec.domain.cpu.cores': ['must be greater than 0'], '': ['something'] });
  });
});

describe('field paths', () => {
  it.each([
    ['spec.volumes[1].name', ['spec', 'volumes', 1, 'name']],
    ['spec.volumes.1.name', ['spec', 'volumes', 1, 'name']],
    ['metadata.name', ['metadata', 'name']],
  ])('%s', (f, want) => expect(parseFieldPath(f)).toEqual(want));

  it('maps a server field to a form field by its end', () => {
    const map = { 'domain.cpu.cores': 'cores', 'memory.guest': 'memory', 'metadata.name': 'name' };
    expect(formFieldOf('spec.template.spec.domain.cpu.cores', map)).toBe('cores');
    expect(formFieldOf('spec.template.spec.domain.memory.guest', map)).toBe('memory');
    expect(formFieldOf('spec.runStrategy', map)).toBeUndefined();
  });
});

describe('lineOfField', () => {
  const yaml = ['apiVersion: kubevirt.io/v1', 'kind: VirtualMachine', 'metadata:', '  name: a', 'spec:', '  template:', '    spec:', '      domain:', '        cpu:', '          cores: 0', '      volumes:', '        - name: root', '        - name: cloudinit', ''].join('\n');
  it.each([
    ['spec.template.spec.domain.cpu.cores', 10],
    ['spec.template.spec.volumes[1].name', 13],
    ['spec.template.spec.domain.memory.guest', 8], // missing: its deepest parent present
    ['metadata.name', 4],
  ])('%s → line %i', (f, line) => expect(lineOfField(yaml, f)).toBe(line));
  it('gives up on YAML that does not parse', () => expect(lineOfField('a: [', 'a')).toBeUndefined());
});

describe('adviseOnFailure', () => {
  it.each([
    [0, /cannot reach the Kubernetes API server/],
    [503, /cannot reach the Kubernetes API server/],
    [401, /sign in again/],
    [403, /may not do this/],
    [404, /CRDs may not be installed/],
    [409, /Try again/],
  ])('HTTP %i tells the user what to do', (code, advice) => {
    expect(adviseOnFailure(code)).toMatch(advice);
  });
});

import { describe, expect, it } from 'vitest';
import { checkSchema, MAX_SCHEMA_CAUSES } from './schema-check';
import { OBJECT_META_SCHEMA, migrationPolicySpecSchema, vmiSpecSchema } from './admission-schemas';

const spec = (extra: Record<string, unknown> = {}) => ({ domain: { devices: {}, resources: { requests: { memory: '64Mi' } } }, ...extra });
const messages = (v: unknown, field = 'spec') => checkSchema(v, vmiSpecSchema(), field).map((c) => c.message);

describe('checkSchema against the VMI CRD schema', () => {
  it('accepts a well-typed spec, nulls as absent and fields the CRD does not know', () => {
    expect(messages(spec({ hostname: null, notAField: { x: 1 } }))).toEqual([]);
  });

  it('reports a wrong JSON type at its full path, in kube-openapi words', () => {
    expect(checkSchema(spec({ volumes: { name: 'x' } }), vmiSpecSchema(), 'spec.template.spec')).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.template.spec.volumes', message: 'spec.template.spec.volumes in body must be of type array: "object"' },
    ]);
  });

  it('accepts a probe port as a number or a name (int-or-string)', () => {
    expect(messages(spec({ readinessProbe: { tcpSocket: { port: 22 } }, livenessProbe: { httpGet: { port: 'http' } } }))).toEqual([]);
    expect(messages(spec({ readinessProbe: { tcpSocket: { port: true } } }))).toEqual([
      'spec.readinessProbe.tcpSocket.port in body must be of type integer,string: "boolean"',
    ]);
  });

  it('reports a malformed quantity once, with the quantity grammar\'s message', () => {
    const bad = spec();
    (bad.domain.resources.requests as Record<string, unknown>).memory = '12 GB';
    expect(messages(bad)).toEqual([
      `spec.domain.resources.requests.memory: Invalid value: "12 GB": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ]);
  });

  it('leaves missing required fields to the validators', () => {
    expect(messages(spec({ volumes: [{ name: 'v', containerDisk: {} }] }))).toEqual([]);
  });

  it('answers hostile input with at most MAX_SCHEMA_CAUSES causes', () => {
    const disks = Array.from({ length: 500 }, () => 'not a disk');
    expect(checkSchema(spec({ domain: { devices: { disks } } }), vmiSpecSchema(), 'spec')).toHaveLength(MAX_SCHEMA_CAUSES);
  });
});

describe('the other schemas', () => {
  it('types the metadata fields admission reads', () => {
    expect(checkSchema({ labels: { a: 1 } }, OBJECT_META_SCHEMA, 'metadata').map((c) => c.message))
      .toEqual(['metadata.labels.a in body must be of type string: "integer"']);
  });

  it('checks a MigrationPolicy spec against its CRD', () => {
    expect(checkSchema({ selectors: {}, allowPostCopy: 'yes' }, migrationPolicySpecSchema(), 'spec').map((c) => c.message))
      .toEqual(['spec.allowPostCopy in body must be of type boolean: "string"']);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeProtobufBody } from './protobuf-body';

/** a minimal protobuf writer, enough to build the envelopes kubectl sends */
const varint = (n: number) => { const out: number[] = []; while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); } out.push(n); return Buffer.from(out); };
const field = (num: number, v: Buffer | string | number) => typeof v === 'number'
  ? Buffer.concat([varint(num * 8), varint(v)])
  : Buffer.concat([varint(num * 8 + 2), varint(Buffer.byteLength(v)), Buffer.from(v)]);
const msg = (...parts: Buffer[]) => Buffer.concat(parts);
const entry = (num: number, k: string, v: string) => field(num, msg(field(1, k), field(2, v)));
const envelope = (apiVersion: string, kind: string, raw: Buffer) =>
  Buffer.concat([Buffer.from('k8s\0', 'binary'), field(1, msg(field(1, apiVersion), field(2, kind))), field(2, raw)]);

describe('decodeProtobufBody', () => {
  it.each([
    ['ConfigMap', msg(field(1, msg(field(1, 'c1'), field(3, 'ns'), entry(11, 'app', 'x'))), entry(2, 'a', 'b'), entry(2, 'c', 'd')),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'ns', labels: { app: 'x' } }, data: { a: 'b', c: 'd' } }],
    ['Secret', msg(field(1, msg(field(1, 's1'))), entry(2, 'k', 'v'), field(3, 'Opaque')),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { k: 'dg==' }, type: 'Opaque' }],
    ['Namespace', msg(field(1, msg(field(1, 'foo'))), field(2, msg(field(1, 'kubernetes')))),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'foo' }, spec: { finalizers: ['kubernetes'] } }],
    ['SelfSubjectAccessReview', msg(field(1, msg()), field(2, msg(field(1, msg(field(1, 'default'), field(2, 'create'), field(5, 'pods')))))),
      { apiVersion: 'v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } } }],
    ['Service', msg(field(1, msg(field(1, 'web'))), field(2, msg(
      field(1, msg(field(1, 'http'), field(2, 'TCP'), field(3, 80), field(4, msg(field(1, 0), field(2, 8080))), field(5, 30080))),
      field(1, msg(field(1, 'named'), field(3, 81), field(4, msg(field(1, 1), field(3, 'metrics'))))),
      entry(2, 'app', 'web'), field(3, '10.96.0.5'), field(4, 'NodePort'),
    ))),
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: {
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: 30080 }, { name: 'named', port: 81, targetPort: 'metrics' }],
      selector: { app: 'web' }, clusterIP: '10.96.0.5', type: 'NodePort',
    } }],
    ['Eviction', msg(field(1, msg(field(1, 'p1'), field(3, 'ns'))), field(2, msg(field(1, 0)))),
      { apiVersion: 'v1', kind: 'Eviction', metadata: { name: 'p1', namespace: 'ns' }, deleteOptions: { gracePeriodSeconds: 0 } }],
  ])('decodes a %s', (kind, raw, expected) => {
    expect(decodeProtobufBody(envelope('v1', kind, raw))).toEqual(expected);
  });

  it.each([
    ['a kind it does not know', envelope('v1', 'Pod', msg())],
    ['a body without the k8s envelope', Buffer.from('{}')],
  ])('answers 415 for %s', (_n, body) => {
    expect(() => decodeProtobufBody(body)).toThrow(expect.objectContaining({ code: 415 }));
  });

  const full = envelope('v1', 'SelfSubjectReview', msg(field(1, msg(field(1, 'me')))));
  // a cut on a field boundary is a shorter valid message; a cut inside a field is a 400 (or 415 once the kind is lost)
  it.each(Array.from({ length: full.length - 4 }, (_, i) => i + 4))('a body truncated to %i bytes returns or answers 4xx, never hangs', (n) => {
    let code = 200;
    try { decodeProtobufBody(full.subarray(0, n)); } catch (err) { code = (err as { code: number }).code; }
    expect([200, 400, 415]).toContain(code);
  });

  it('answers 400 for a body cut inside a field', () => {
    expect(() => decodeProtobufBody(full.subarray(0, full.length - 1))).toThrow(expect.objectContaining({ code: 400 }));
  });

  it('answers 400 for a varint that never ends', () => {
    const body = Buffer.concat([Buffer.from('k8s\0', 'binary'), Buffer.alloc(20, 0xff)]);
    expect(() => decodeProtobufBody(body)).toThrow(expect.objectContaining({ code: 400 }));
  });
});

import { describe, expect, it } from 'vitest';
import { parseForwardTarget, parsePortPair } from './port-forward-target';

describe('virtctl port-forward arguments', () => {
  it.each([
    ['vm/web', { kind: 'vm', name: 'web', namespace: undefined }],
    ['vmi/web.prod', { kind: 'vmi', name: 'web', namespace: 'prod' }],
    ['VirtualMachineInstance/web', { kind: 'vmi', name: 'web', namespace: undefined }],
    ['virtualmachines/db.ns1', { kind: 'vm', name: 'db', namespace: 'ns1' }],
    ['web', { kind: 'vmi', name: 'web', namespace: undefined }],
  ])('target %s', (arg, want) => {
    expect(parseForwardTarget(arg)).toEqual(want);
  });

  it.each(['pod/x', 'vm/', 'vm/a.b.c', 'vm/a.'])('refuses target %s', (arg) => {
    expect(() => parseForwardTarget(arg)).toThrow();
  });

  it.each([
    ['22', { local: 22, remote: 22, protocol: 'tcp' }],
    ['2222:22', { local: 2222, remote: 22, protocol: 'tcp' }],
    ['0:80', { local: 0, remote: 80, protocol: 'tcp' }],
    [':80', { local: 0, remote: 80, protocol: 'tcp' }],
    ['tcp/22', { local: 22, remote: 22, protocol: 'tcp' }],
    ['udp/8080:9090', { local: 8080, remote: 9090, protocol: 'udp' }],
    ['UDP/53', { local: 53, remote: 53, protocol: 'udp' }],
  ])('ports %s', (arg, want) => {
    expect(parsePortPair(arg)).toEqual(want);
  });

  it.each(['0', '70000', 'http', '1:2:3', '80:0', '-1', 'udp/0'])('refuses ports %s', (arg) => {
    expect(() => parsePortPair(arg)).toThrow(/invalid port/);
  });

  it('refuses a protocol other than tcp or udp', () => {
    expect(() => parsePortPair('sctp/80')).toThrow("invalid protocol 'sctp': tcp or udp");
  });
});

import { describe, expect, it } from 'vitest';
import { SelectorError, findUnsupportedField, matchFields, parseFieldSelector } from './index';

const pod = {
  kind: 'Pod',
  metadata: { name: 'virt-launcher-vm1-abc', namespace: 'default' },
  spec: { nodeName: 'node-1', hostNetwork: false },
  status: { phase: 'Running' },
};
const unbound = { kind: 'Pod', metadata: { name: 'p2', namespace: 'default' }, spec: {}, status: { phase: 'Pending' } };
const event = { kind: 'Event', involvedObject: { kind: 'VirtualMachine', name: 'vm1' }, source: { component: 'virt-controller' } };

describe('parseFieldSelector + matchFields', () => {
  it.each([
    ['', pod, true],
    ['metadata.name=virt-launcher-vm1-abc', pod, true],
    ['metadata.name==virt-launcher-vm1-abc', pod, true],
    ['metadata.name!=virt-launcher-vm1-abc', pod, false],
    ['metadata.namespace=default,status.phase=Running', pod, true],
    ['spec.nodeName=node-1', pod, true],
    ['spec.nodeName=', pod, false],
    ['spec.nodeName=', unbound, true],
    ['spec.nodeName!=', unbound, false],
    ['spec.hostNetwork=false', pod, true],
    ['status.phase!=Succeeded,status.phase!=Failed', pod, true],
    ['involvedObject.kind=VirtualMachine,involvedObject.name=vm1', event, true],
    ['source=virt-controller', event, true],
  ])('%j', (sel, obj, expected) => {
    expect(matchFields(parseFieldSelector(sel), obj)).toBe(expected);
  });

  it('unescapes values', () => {
    expect(parseFieldSelector('metadata.name=a\\,b').requirements[0].value).toBe('a,b');
  });

  it.each([
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b=c', 'unescaped character in value: ='],
    ['a=b\\x', 'invalid escape sequence'],
  ])('rejects %j', (sel, message) => {
    expect(() => parseFieldSelector(sel)).toThrow(SelectorError);
    expect(() => parseFieldSelector(sel)).toThrow(message);
  });
});

describe('findUnsupportedField', () => {
  it.each([
    ['spec.nodeName=x', 'Pod', undefined],
    ['spec.nodeName=x', 'VirtualMachine', 'spec.nodeName'],
    ['metadata.name=x', 'VirtualMachine', undefined],
    ['status.phase=Running', 'Node', 'status.phase'],
  ])('%j on %s → %s', (sel, kind, field) => {
    expect(findUnsupportedField(parseFieldSelector(sel), kind)).toBe(field);
  });
});

import { describe, expect, it } from 'vitest';
import { PatchError, applyJsonPatch, applyMergePatch } from './index';

const vm = () => ({
  metadata: { name: 'vm1', labels: { app: 'a' } },
  spec: { runStrategy: 'Halted' },
  status: { stateChangeRequests: [{ action: 'Start' }] },
});

/** a patched VM, for reading the fields the checks compare */
const asVm = (v: unknown) => v as ReturnType<typeof vm>;

describe('applyJsonPatch', () => {
  it.each([
    ['replace', [{ op: 'replace', path: '/spec/runStrategy', value: 'Always' }], { runStrategy: 'Always' }],
    ['test then replace', [
      { op: 'test', path: '/spec/runStrategy', value: 'Halted' },
      { op: 'replace', path: '/spec/runStrategy', value: 'Always' },
    ], { runStrategy: 'Always' }],
    ['add a field', [{ op: 'add', path: '/spec/running', value: false }], { runStrategy: 'Halted', running: false }],
    ['remove a field', [{ op: 'remove', path: '/spec/runStrategy' }], {}],
  ])('%s', (_name, ops, spec) => {
    expect(asVm(applyJsonPatch(vm(), ops)).spec).toEqual(spec);
  });

  it('does not modify its input', () => {
    const obj = vm();
    applyJsonPatch(obj, [{ op: 'add', path: '/metadata/labels/b', value: 'x' }]);
    expect(obj.metadata.labels).toEqual({ app: 'a' });
  });

  it.each([
    ['failed test', [{ op: 'test', path: '/status/stateChangeRequests', value: [] }], 422],
    ['test of a missing path', [{ op: 'test', path: '/spec/nope', value: 'x' }], 422],
    ['replace of a missing key', [{ op: 'replace', path: '/spec/nope', value: 1 }], 422],
    ['remove of a missing key', [{ op: 'remove', path: '/metadata/annotations' }], 422],
    ['unknown op', [{ op: 'frobnicate', path: '/spec' }], 422],
    ['not an array', { op: 'add' }, 400],
    ['array of strings', ['add'], 400],
  ])('%s → %i', (_name, ops, code) => {
    const run = () => applyJsonPatch(vm(), ops);
    expect(run).toThrow(PatchError);
    try {
      run();
    } catch (e) {
      expect((e as PatchError).code).toBe(code);
      expect((e as PatchError).toStatus()).toMatchObject({ kind: 'Status', status: 'Failure', code });
    }
  });

  it('answers a failed test with kube\'s Invalid status and keeps the reason as detail', () => {
    const err = catchError(() => applyJsonPatch(vm(), [{ op: 'test', path: '/spec/runStrategy', value: 'Always' }]));
    expect(err.toStatus()).toMatchObject({
      reason: 'Invalid',
      message: 'the server rejected our request due to an error in our request',
    });
    expect(err.detail).toContain('/spec/runStrategy');
  });
});

describe('applyMergePatch', () => {
  it.each([
    ['sets a nested field', { spec: { runStrategy: 'Always' } }, { runStrategy: 'Always' }],
    ['null deletes', { spec: { runStrategy: null } }, {}],
    ['adds a new object', { spec: { template: { spec: { a: 1, b: null } } } }, { runStrategy: 'Halted', template: { spec: { a: 1 } } }],
  ])('%s', (_name, patch, spec) => {
    expect(asVm(applyMergePatch(vm(), patch)).spec).toEqual(spec);
  });

  it('replaces arrays whole', () => {
    expect(asVm(applyMergePatch(vm(), { status: { stateChangeRequests: [{ action: 'Stop' }] } })).status)
      .toEqual({ stateChangeRequests: [{ action: 'Stop' }] });
  });

  it.each([[[1]], ['x'], [null]])('rejects a non-object patch %j with 400', (patch) => {
    expect(catchError(() => applyMergePatch(vm(), patch)).code).toBe(400);
  });
});

function catchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (e) {
    return e as PatchError;
  }
  throw new Error('expected an error');
}

import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkMountsUnder, MountPlanError, planBindMounts, wrapInMountNamespace } from './container-mounts';

const paths = new Map([['data', '/pods/u/volumes/data'], ['certs', '/pods/u/volumes/certs'], ['host', '/var/lib/kubevirt-ts/nodes']]);

describe('bind mounts of a container', () => {
  it('mounts parents first, with subPath, subPathExpr and readOnly', () => {
    const mounts = planBindMounts({ name: 'c', volumeMounts: [
      { name: 'certs', mountPath: '/var/lib/kubevirt-ts/virt-api/serving.crt', subPath: 'tls.crt', readOnly: true },
      { name: 'data', mountPath: '/var/lib/kubevirt-ts' },
      { name: 'host', mountPath: '/var/run/kubevirt-ts/pod', subPathExpr: '$(KV_NODE_NAME)/pods/$(POD_UID)' },
    ] }, paths, { KV_NODE_NAME: 'node-1', POD_UID: 'abc' });
    expect(mounts).toEqual([
      { source: '/pods/u/volumes/data', target: '/var/lib/kubevirt-ts', readOnly: false },
      { source: '/var/lib/kubevirt-ts/nodes/node-1/pods/abc', target: '/var/run/kubevirt-ts/pod', readOnly: false },
      { source: '/pods/u/volumes/certs/tls.crt', target: '/var/lib/kubevirt-ts/virt-api/serving.crt', readOnly: true },
    ]);
  });

  it.each([
    [{ name: 'data', mountPath: '/x', subPath: '../../etc' }, 'subPath "../../etc" of volume "data" must be a relative path without \'..\''],
    [{ name: 'data', mountPath: '/x', subPathExpr: '$(P)' }, 'subPath "/etc" of volume "data" must be a relative path without \'..\''],
    [{ name: 'missing', mountPath: '/x' }, 'volume "missing" of container "c" cannot be mounted on a process node'],
  ])('refuses an escape or an unknown volume (%#)', (m, message) => {
    expect(() => planBindMounts({ name: 'c', volumeMounts: [m] }, paths, { P: '/etc' })).toThrow(new MountPlanError(message));
  });

  it('runs the command through unshare with the paths as arguments, never in the script', () => {
    const w = wrapInMountNamespace([{ source: '/a b', target: '/t;rm -rf /', readOnly: true }], '/usr/bin/node', ['kv.mjs', 'handler']);
    expect(w.file).toBe('unshare');
    expect(w.args.slice(0, 4)).toEqual(['--mount', '--propagation', 'private', '--']);
    expect(w.args.slice(-7)).toEqual(['1', '/a b', '/t;rm -rf /', 'ro', '/usr/bin/node', 'kv.mjs', 'handler']);
    expect(w.args[6]).not.toContain('/a b');
  });

  it('leaves a container without mounts alone', () => {
    expect(wrapInMountNamespace([], 'f', ['a'])).toEqual({ file: 'f', args: ['a'] });
  });
});

describe('without root (no mount namespace)', () => {
  it('links every mount path under the container root to its source', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'kv-root-')), 'root');
    try {
      linkMountsUnder(root, [{ source: '/pods/u/volumes/kube-api-access-x', target: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }]);
      expect(readlinkSync(join(root, 'var/run/secrets/kubernetes.io/serviceaccount'))).toBe('/pods/u/volumes/kube-api-access-x');
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });
});

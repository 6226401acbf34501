import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { renderLauncherPod } from './render-launcher-pod';
import { LAUNCHER_POD_DIR } from './render-node-mounts';

const dir = join(import.meta.dirname, 'testdata');
const IMAGE = 'registry.example/kubevirt-ts:v1';
const minimal = () => parse(readFileSync(join(dir, 'minimal.input.yaml'), 'utf8')) as VirtualMachineInstance;

describe('launcher pod in cluster mode (launcherImage set)', () => {
  it('matches the golden file', () => {
    const got = stringify(renderLauncherPod(minimal(), { launcherImage: IMAGE }));
    const outFile = join(dir, 'cluster', 'minimal.output.yaml');
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(outFile, got);
    expect(existsSync(outFile), `${outFile} missing: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(got).toBe(readFileSync(outFile, 'utf8'));
  });

  it('gives every volume mount a volume and defines each $(VAR) before it is used', () => {
    const spec = renderLauncherPod(minimal(), { launcherImage: IMAGE }).spec!;
    const c = spec.containers[0];
    const volumes = new Set(spec.volumes!.map((v) => v.name));
    expect(c.volumeMounts!.every((m) => volumes.has(m.name))).toBe(true);
    const names = (c.env ?? []).map((e) => e.name);
    (c.env ?? []).forEach((e, i) => {
      for (const [, ref] of (e.value ?? '').matchAll(/\$\(([A-Z_]+)\)/g)) expect(names.slice(0, i)).toContain(ref);
    });
    const subPathRefs = [...(c.volumeMounts!.find((m) => m.mountPath === LAUNCHER_POD_DIR)!.subPathExpr ?? '').matchAll(/\$\(([A-Z_]+)\)/g)].map((m) => m[1]);
    expect(subPathRefs).toEqual(['KV_NODE_NAME', 'POD_UID']);
    expect(subPathRefs.every((r) => names.includes(r))).toBe(true);
    expect(c.env!.find((e) => e.name === 'KV_POD_DIR')!.value).toBe(LAUNCHER_POD_DIR);
  });

  it('asks no kubelet to pull the containerDisks (the launcher reads the node store), embedded mode does', () => {
    const vmi = minimal();
    vmi.spec!.volumes = [{ name: 'root', containerDisk: { image: 'demo' } }];
    expect(renderLauncherPod(vmi, { launcherImage: IMAGE }).metadata!.annotations).not.toHaveProperty('kubevirt-ts.io/container-disks');
    expect(renderLauncherPod(vmi).metadata!.annotations!['kubevirt-ts.io/container-disks']).toBe('[{"image":"demo"}]');
  });

  it('leaves the embedded pod (no launcherImage) without host mounts, but tells it its Pod IP for migrations', () => {
    const spec = renderLauncherPod(minimal()).spec!;
    expect(spec.volumes).toBeUndefined();
    expect(spec.containers[0].env?.map((e) => e.name)).toEqual(['POD_IP', 'KV_MIGRATION_HOST']);
  });
});

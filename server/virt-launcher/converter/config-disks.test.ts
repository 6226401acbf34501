/** Config disks and cloud-init media as the guest sees them: labels, file names, exact bytes, keys in meta-data. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LauncherVMI } from '../vmi-types';
import { planCloudInitMedia } from './cloud-init';
import { planConfigDisks, writeConfigDisks } from './config-disks';

let work: string;
beforeEach(async () => { work = await mkdtemp(join(tmpdir(), 'kv-cfgdisk-test-')); });
afterEach(async () => { await rm(work, { recursive: true, force: true }); });

const iso = (path: string, ...args: string[]) => execFileSync('isoinfo', ['-i', path, ...args], { encoding: 'utf8' });
const b64 = (t: string | Buffer) => Buffer.from(t).toString('base64');
const vmi = (spec: Record<string, unknown>): LauncherVMI => ({ metadata: { name: 'vm', namespace: 'ns1', uid: 'u-1' }, spec: { domain: { devices: {} }, ...spec } as never });

describe('config disks', () => {
  it('one ISO per volume, label cfgdata unless volumeLabel names one, every key a file with its exact bytes', async () => {
    const v = vmi({ volumes: [{ name: 'cm', configMap: { name: 'app' } }, { name: 'sec', secret: { secretName: 's', volumeLabel: 'creds' } }, { name: 'root', containerDisk: { image: 'demo' } }] });
    const binary = Buffer.from([0, 1, 2, 255]);
    const plans = planConfigDisks(v, work, { configVolumes: { cm: { 'app.conf': b64('x=1\n') }, sec: { key: b64(binary) } } });
    expect(plans.map((p) => [p.volume, p.label])).toEqual([['cm', 'cfgdata'], ['sec', 'creds']]);
    const media = await writeConfigDisks(plans);
    expect(iso(media.cm, '-d')).toMatch(/^Volume id: cfgdata$/m);
    expect(iso(media.sec, '-d')).toMatch(/^Volume id: creds$/m);
    expect(iso(media.cm, '-R', '-x', '/app.conf')).toBe('x=1\n');
    expect(Buffer.from(execFileSync('isoinfo', ['-i', media.sec, '-R', '-x', '/key']))).toEqual(binary);
  });

  it('refuses file names that leave the disk, and a volume virt-handler gave no files for', () => {
    const v = vmi({ volumes: [{ name: 'cm', configMap: { name: 'app' } }] });
    expect(() => planConfigDisks(v, work, { configVolumes: { cm: { '../x': b64('y') } } })).toThrow(/is not a relative path/);
    expect(() => planConfigDisks(v, work, {})).toThrow(/virt-handler passed no files/);
  });
});

describe('cloud-init media from what virt-handler read', () => {
  it('user data from the Secret, SSH keys in meta-data as KubeVirt numbers them (NoCloud YAML, ConfigDrive JSON)', () => {
    const v = vmi({ volumes: [{ name: 'ci', cloudInitNoCloud: { secretRef: { name: 'ud' } } }, { name: 'cd', cloudInitConfigDrive: { userData: 'inline' } }] });
    const [noCloud, configDrive] = planCloudInitMedia(v, work, {
      cloudInit: { ci: { userData: '#!/bin/sh\necho from-secret' } },
      sshPublicKeys: { noCloud: ['ssh-ed25519 AAA a@x', 'ssh-ed25519 BBB b@x'], configDrive: ['ssh-rsa CCC'] },
    });
    expect(noCloud.userData).toBe('#!/bin/sh\necho from-secret');
    expect(noCloud.metaData).toContain('public-keys:\n  "0": "ssh-ed25519 AAA a@x"\n  "1": "ssh-ed25519 BBB b@x"\n');
    expect(configDrive.userData).toBe('inline');
    expect(JSON.parse(configDrive.metaData).public_keys).toEqual({ 0: 'ssh-rsa CCC' });
  });

  it('without keys the meta-data is what it was', () => {
    const [p] = planCloudInitMedia(vmi({ volumes: [{ name: 'ci', cloudInitNoCloud: { userData: 'x' } }] }), work);
    expect(p.metaData).not.toContain('public-keys');
  });
});

/** Cloud-init media as a guest's cloud-init sees them: volume id and file contents (read with isoinfo). */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeConfigDriveMedia, makeNoCloudMedia } from './cloud-init-media';
import { hasIso9660Signature } from './qemu-img';

let work: string;
beforeEach(async () => { work = await mkdtemp(join(tmpdir(), 'kv-cidata-test-')); });
afterEach(async () => { await rm(work, { recursive: true, force: true }); });

const volumeId = (iso: string) => execFileSync('isoinfo', ['-d', '-i', iso], { encoding: 'utf8' }).match(/^Volume id: (.*)$/m)?.[1];
const listFiles = (iso: string) => execFileSync('isoinfo', ['-R', '-f', '-i', iso], { encoding: 'utf8' }).trim().split('\n').sort();
const readIsoFile = (iso: string, path: string) => execFileSync('isoinfo', ['-R', '-i', iso, '-x', path], { encoding: 'utf8' });

const USER_DATA = '#!/bin/sh\necho hi\n';

describe('makeNoCloudMedia', () => {
  it.each([
    ['meta-data only', { metaData: 'instance-id: a\n' }, ['/meta-data']],
    ['all three', { metaData: 'instance-id: a\n', userData: USER_DATA, networkData: 'version: 2\n' }, ['/meta-data', '/network-config', '/user-data']],
  ])('writes a "cidata" ISO with %s', async (_label, data, files) => {
    const iso = join(work, 'nocloud.iso');
    await makeNoCloudMedia({ outFile: iso, ...data });
    expect(await hasIso9660Signature(iso)).toBe(true);
    expect(volumeId(iso)).toBe('cidata');
    expect(listFiles(iso)).toEqual(files);
    expect(readIsoFile(iso, '/meta-data')).toBe('instance-id: a\n');
  });

  it('keeps long names and exact bytes (Rock Ridge)', async () => {
    const iso = join(work, 'nocloud.iso');
    const userData = `#cloud-config\nruncmd:\n  - echo ${'é'.repeat(50)}\n`;
    await makeNoCloudMedia({ outFile: iso, metaData: 'local-hostname: vm1\n', userData });
    expect(readIsoFile(iso, '/user-data')).toBe(userData);
  });

  it('creates missing parent directories and leaves no partial file', async () => {
    const iso = join(work, 'pods', 'uid', 'noCloud.iso');
    await makeNoCloudMedia({ outFile: iso, metaData: 'instance-id: a\n' });
    expect(readdirSync(join(work, 'pods', 'uid'))).toEqual(['noCloud.iso']);
  });
});

describe('makeConfigDriveMedia', () => {
  it('writes a "config-2" ISO with openstack/latest files', async () => {
    const iso = join(work, 'configdrive.iso');
    const metaData = JSON.stringify({ uuid: 'u1', hostname: 'vm1', instance_id: 'vm1.default' });
    await makeConfigDriveMedia({ outFile: iso, metaData, userData: USER_DATA });
    expect(volumeId(iso)).toBe('config-2');
    expect(listFiles(iso)).toEqual(['/openstack', '/openstack/latest', '/openstack/latest/meta_data.json', '/openstack/latest/user_data']);
    expect(JSON.parse(readIsoFile(iso, '/openstack/latest/meta_data.json'))).toEqual({ uuid: 'u1', hostname: 'vm1', instance_id: 'vm1.default' });
    expect(readIsoFile(iso, '/openstack/latest/user_data')).toBe(USER_DATA);
  });

  it('replaces an existing file in place', async () => {
    const iso = join(work, 'configdrive.iso');
    await makeConfigDriveMedia({ outFile: iso, metaData: '{"hostname":"a"}' });
    await makeConfigDriveMedia({ outFile: iso, metaData: '{"hostname":"b"}' });
    expect(readIsoFile(iso, '/openstack/latest/meta_data.json')).toBe('{"hostname":"b"}');
    expect(existsSync(`${iso}.partial`)).toBe(false);
  });
});

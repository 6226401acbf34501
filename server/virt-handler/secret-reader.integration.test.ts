/**
 * virt-handler's one Secret reader against a real API server, through both callers' policies:
 * launcher inputs get base64 or undefined, access credentials get text or kube's not-found message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTestApiServer } from '../kube/testing/api-server';
import { messageOf } from '../kube/api-errors';
import { secretDataReader } from './secret-reader';
import { secretReader } from './access-credentials';
import { apiInputReader } from './launcher-inputs';

let api: Awaited<ReturnType<typeof startTestApiServer>>;
let core: CoreV1Api;

beforeAll(async () => {
  api = await startTestApiServer();
  core = api.kc.makeApiClient(CoreV1Api);
  await core.createNamespacedSecret({
    namespace: 'default',
    body: { metadata: { name: 'keys' }, data: { a: Buffer.from('ssh-ed25519 AAA u@h\n').toString('base64') }, stringData: { b: 'pässword' } },
  });
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('secretDataReader', () => {
  it('returns the values base64-encoded, stringData included', async () => {
    expect(await secretDataReader(core)('default', 'keys')).toEqual({
      a: Buffer.from('ssh-ed25519 AAA u@h\n').toString('base64'),
      b: Buffer.from('pässword').toString('base64'),
    });
  });

  it('returns undefined for a Secret that does not exist', async () => {
    expect(await secretDataReader(core)('default', 'nope')).toBeUndefined();
  });
});

describe('its callers', () => {
  it('launcher inputs: base64 values, undefined when missing', async () => {
    const inputs = apiInputReader(core);
    expect(await inputs.secret('default', 'keys')).toEqual(await secretDataReader(core)('default', 'keys'));
    expect(await inputs.secret('default', 'nope')).toBeUndefined();
  });

  it('access credentials: decoded text, and the API\'s not-found message for a missing Secret', async () => {
    const read = secretReader(core);
    expect(await read('default', 'keys')).toEqual({ a: 'ssh-ed25519 AAA u@h\n', b: 'pässword' });
    const apiMessage = await core.readNamespacedSecret({ namespace: 'default', name: 'nope' }).then(() => '', messageOf);
    expect(apiMessage).toBe('secrets "nope" not found');
    await expect(read('default', 'nope')).rejects.toThrow(apiMessage);
  });
});

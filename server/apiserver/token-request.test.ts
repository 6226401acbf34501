/**
 * ServiceAccount tokens (TokenRequest) against a real API server, with real kubectl: `kubectl
 * create token` works; the token authenticates as the ServiceAccount (whoami, TokenReview) and is
 * authorized as that user; it ends when it expires, when its ServiceAccount or bound object is
 * deleted (even if one of the same name is made again), and only serves its audience.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken, type Kubectl, type KubectlResult } from '../../e2e/support/kubectl';
import { serviceAccountTokenAuthenticator } from './sa-token-authn';
import { tokenSigner, SA_TOKEN_ISSUER } from './sa-token-signer';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;

/** kubectl as the admin, or with `token` (one kubectl home per identity, disposed at the end) */
const homes = new Map<string, Kubectl>();
function kubectl(args: string[], token?: string): Promise<KubectlResult> {
  const as = token ?? t.srv.adminToken;
  if (!homes.has(as)) homes.set(as, kubectlWithToken(t.srv, as));
  return homes.get(as)!.run(...args);
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
const status = async (token: string) => (await t.call('GET', '/api/v1/namespaces/default/configmaps', undefined, { token })).status;

async function createToken(sa: string, extra: string[] = []): Promise<string> {
  const r = await kubectl(['create', 'token', sa, '-n', 'default', ...extra]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return r.out.trim();
}

beforeAll(async () => {
  t = await startTestServer();
  for (const sa of ['robot', 'doomed', 'bound']) expect((await kubectl(['create', 'serviceaccount', sa, '-n', 'default'])).code).toBe(0);
});
afterAll(async () => {
  await t?.close();
  for (const k of homes.values()) k.dispose();
});

describe('kubectl create token', () => {
  it('returns a token for the ServiceAccount that lasts --duration', async () => {
    const token = await createToken('robot', ['--duration', '1h']);
    const c = claimsOf(token);
    expect(c.exp - c.iat).toBe(3600);
    expect(c.sub).toBe('system:serviceaccount:default:robot');
    const byDefault = claimsOf(await createToken('robot'));
    expect(byDefault.exp - byDefault.iat).toBe(3600); // the default
  });

  it('authenticates as the ServiceAccount, which is authorized as itself (not as the admin)', async () => {
    const token = await createToken('robot', ['--duration', '1h']);
    const who = await kubectl(['auth', 'whoami', '-o', 'json'], token);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.out).status.userInfo).toEqual({ username: 'system:serviceaccount:default:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] });
    const get = await kubectl(['get', 'configmaps', '-n', 'default'], token);
    expect(get.code).not.toBe(0);
    expect(get.err).toContain('User "system:serviceaccount:default:robot" cannot list resource "configmaps"');
  });

  it('TokenReview answers for it', async () => {
    const token = await createToken('robot');
    const r = await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect(r.status).toBe(201);
    expect(r.body.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:robot' } });
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: forged } })).body.status.authenticated).toBe(false);
  });

  it('refuses a duration under 10 minutes and an unknown ServiceAccount, with kube\'s messages', async () => {
    const short = await kubectl(['create', 'token', 'robot', '-n', 'default', '--duration', '5m']);
    expect(short.code).not.toBe(0);
    expect(short.err).toContain('spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
    const none = await kubectl(['create', 'token', 'nobody', '-n', 'default']);
    expect(none.err).toContain('serviceaccounts "nobody" not found');
  });

  it('a token for another audience is not accepted by the API server, but TokenReview for that audience accepts it', async () => {
    const token = await createToken('robot', ['--audience', 'vault']);
    expect(claimsOf(token).aud).toEqual(['vault']);
    expect(await status(token)).toBe(401);
    const r = await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token, audiences: ['vault'] } });
    expect(r.body.status).toMatchObject({ authenticated: true, audiences: ['vault'] });
    const apiToken = await createToken('robot');
    expect((await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: apiToken, audiences: ['vault'] } })).body.status.authenticated).toBe(false);
    expect((await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: { token: t.srv.viewerToken, audiences: ['vault'] } })).body.status.authenticated).toBe(true);
  });
});

describe('revocation', () => {
  it('deleting the ServiceAccount ends its tokens, also after one of the same name is made again', async () => {
    const token = await createToken('doomed');
    expect(await status(token)).toBe(403); // known, not authorized
    expect((await kubectl(['delete', 'serviceaccount', 'doomed', '-n', 'default'])).code).toBe(0);
    expect(await status(token)).toBe(401);
    expect((await kubectl(['create', 'serviceaccount', 'doomed', '-n', 'default'])).code).toBe(0);
    expect(await status(token)).toBe(401);
  });

  it('a token bound to a Secret ends when the Secret is deleted; binding to a missing object is refused', async () => {
    expect((await kubectl(['create', 'secret', 'generic', 'anchor', '-n', 'default', '--from-literal=a=b'])).code).toBe(0);
    const token = await createToken('bound', ['--bound-object-kind', 'Secret', '--bound-object-name', 'anchor']);
    expect(claimsOf(token)['kubernetes.io'].secret.name).toBe('anchor');
    expect(await status(token)).toBe(403);
    expect((await kubectl(['delete', 'secret', 'anchor', '-n', 'default'])).code).toBe(0);
    expect(await status(token)).toBe(401);
    const missing = await kubectl(['create', 'token', 'bound', '-n', 'default', '--bound-object-kind', 'Secret', '--bound-object-name', 'gone']);
    expect(missing.err).toContain('secrets "gone" not found');
  });
});

describe('expiry', () => {
  it('an expired token, or one signed with another key, authenticates nobody', async () => {
    const sa = (await t.call('GET', '/api/v1/namespaces/default/serviceaccounts/robot')).body;
    let clock = Date.now();
    const authn = serviceAccountTokenAuthenticator(t.srv.ctx, t.srv.ctx.tokenSigner!, () => clock);
    const iat = Math.floor(clock / 1000);
    const claims = { iss: SA_TOKEN_ISSUER, sub: 'system:serviceaccount:default:robot', aud: [SA_TOKEN_ISSUER], iat, nbf: iat, exp: iat + 600, jti: 'x', 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'robot', uid: sa.metadata.uid } } };
    const token = t.srv.ctx.tokenSigner!.sign(claims);
    expect(authn(token)?.username).toBe('system:serviceaccount:default:robot');
    clock += 600_000;
    expect(authn(token)).toBeUndefined();
    const other = tokenSigner(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey).sign(claims);
    clock -= 600_000;
    expect(authn(other)).toBeUndefined();
  });
});

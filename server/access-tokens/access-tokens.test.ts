/**
 * `kv token` against a real API server: a token is a ServiceAccount with a role and a lifetime,
 * it authenticates as that ServiceAccount, `list` shows it, `revoke` ends it at once. The CLI is
 * driven as a user would (bin/kv.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '../apiserver/kubeconfig';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server';
import { makeKubeConfig } from '../kube/kubeconfig';
import { createAccessToken, listAccessTokens, revokeAccessToken, TOKENS_NAMESPACE } from './access-tokens';

let t: TestServer;
let home: string;
let kubeconfig: string;
const admin = () => makeKubeConfig({ server: t.srv.url, token: t.srv.adminToken, caPem: t.srv.caPem });
const whoami = async (token: string) => t.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { token });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

function kv(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['bin/kv.mjs', 'token', ...args, '--kubeconfig', kubeconfig], { env: { ...process.env, HOME: home } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

beforeAll(async () => {
  t = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'kv-token-'));
  kubeconfig = join(home, 'kubeconfig');
  writeKubeconfig(kubeconfig, { server: t.srv.url, caPem: t.srv.caPem, token: t.srv.adminToken });
});
afterAll(async () => {
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('access tokens', () => {
  it('create: a ServiceAccount of the role in kubevirt-ts-tokens, a token that authenticates as it for the TTL', async () => {
    const made = await createAccessToken(admin(), { role: 'view', ttlSeconds: 7200 });
    expect(made.name).toMatch(/^kv-view-[0-9a-f]{6}$/);
    const who = await whoami(made.token);
    expect(who.status).toBe(201);
    expect(who.body.status.userInfo.username).toBe(`system:serviceaccount:${TOKENS_NAMESPACE}:${made.name}`);
    const c = claimsOf(made.token);
    expect(c.exp - c.iat).toBe(7200);
    const crb = await t.call('GET', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${made.name}`);
    expect(crb.body).toMatchObject({ roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', namespace: TOKENS_NAMESPACE, name: made.name }] });
  });

  it('list shows each token with its role and scope; revoke ends its tokens at once', async () => {
    const all = await createAccessToken(admin(), { role: 'edit', ttlSeconds: 3600 });
    const ns = await createAccessToken(admin(), { role: 'admin', ttlSeconds: 3600, namespace: 'default' });
    const listed = await listAccessTokens(admin());
    expect(listed.find((x) => x.name === all.name)).toMatchObject({ role: 'edit', scope: 'all namespaces' });
    expect(listed.find((x) => x.name === ns.name)).toMatchObject({ role: 'admin', scope: 'default' });
    expect((await whoami(ns.token)).status).toBe(201);
    expect(await revokeAccessToken(admin(), ns.name)).toBe(true);
    expect((await whoami(ns.token)).status).toBe(401);
    expect((await whoami(all.token)).status).toBe(201);
    expect((await listAccessTokens(admin())).map((x) => x.name)).not.toContain(ns.name);
    expect(await revokeAccessToken(admin(), ns.name)).toBe(false);
  });
});

describe('kv token (the command)', () => {
  it('create prints the token on stdout and how to use and revoke it; list and revoke work by name', async () => {
    const made = await kv(['create', '--role', 'view', '--ttl', '1h']);
    expect(made.code).toBe(0);
    const token = made.out.trim();
    const name = /kv token: (kv-view-[0-9a-f]{6}): role view in all namespaces, expires /.exec(made.err)?.[1];
    expect(name).toBeDefined();
    expect(made.err).toContain(`kv token revoke ${name}`);
    expect((await whoami(token)).status).toBe(201);
    expect((await kv(['list'])).out).toMatch(new RegExp(`^${name}\\s+view\\s+all namespaces`, 'm'));
    const revoked = await kv(['revoke', name!]);
    expect(revoked).toMatchObject({ code: 0 });
    expect((await whoami(token)).status).toBe(401);
  });

  it.each([
    [['create', '--role', 'root'], /--role must be one of view, edit, admin/],
    [['create', '--role', 'view', '--ttl', '5m'], /--ttl must be a duration .* between 600s/],
    [['revoke'], /revoke needs the token NAME/],
    [['frob'], /unknown subcommand "frob"/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await kv(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toContain('usage: kv token create');
  });

  it('revoking an unknown token says so (exit 1)', async () => {
    const r = await kv(['revoke', 'kv-view-nope']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no token named "kv-view-nope"/);
  });
});

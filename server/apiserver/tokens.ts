import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_VIEWERS, type UserInfo } from './authz';

/** Bearer tokens → users, kept in DIR/apiserver/tokens.json (0600). */
export interface TokenEntry { token: string; username: string; groups: string[] }
export interface TokenFile {
  tokens: TokenEntry[];
  /** not stored: signed ServiceAccount tokens (TokenRequest), tried when a token is not in the file */
  boundTokens?: (token: string) => UserInfo | undefined;
}

export const ADMIN_USER = 'admin';
export const VIEWER_USER = 'viewer';
/** the API server's identity towards kubelets (kubeadm names its client certificate so) */
export const KUBELET_CLIENT_USER = 'kube-apiserver-kubelet-client';
/** The identities KubeVirt's own components act as (virt-api's admission trusts these for VMI spec writes). */
export const COMPONENT_USERS = {
  'virt-controller': 'system:serviceaccount:kubevirt:kubevirt-controller',
  'virt-handler': 'system:serviceaccount:kubevirt:kubevirt-handler',
  'virt-api': 'system:serviceaccount:kubevirt:kubevirt-apiserver',
} as const;
export type ComponentName = keyof typeof COMPONENT_USERS;
const SERVICE_ACCOUNT_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:kubevirt'];

const newToken = () => randomBytes(24).toString('base64url');

/** Loads the token file, creating it (or adding identities an older file lacks). */
export function ensureTokens(path: string): TokenFile {
  const file: TokenFile = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as TokenFile) : { tokens: [] };
  const wanted: Omit<TokenEntry, 'token'>[] = [
    { username: ADMIN_USER, groups: [GROUP_MASTERS] },
    { username: VIEWER_USER, groups: [GROUP_VIEWERS] },
    { username: KUBELET_CLIENT_USER, groups: [GROUP_MASTERS] },
    // least privilege: the ClusterRoles of deploy/cluster/rbac-*.yaml, bound at start (rbac/component-policy.ts)
    ...Object.values(COMPONENT_USERS).map((username) => ({ username, groups: SERVICE_ACCOUNT_GROUPS })),
  ];
  const missing = wanted.filter((w) => !file.tokens.some((t) => t.username === w.username));
  // a file from before RBAC put the components in system:masters: they lose it
  const components = new Set<string>(Object.values(COMPONENT_USERS));
  const demoted = file.tokens.filter((t) => components.has(t.username) && t.groups.includes(GROUP_MASTERS));
  for (const t of demoted) t.groups = SERVICE_ACCOUNT_GROUPS;
  if (missing.length === 0 && demoted.length === 0) return file;
  file.tokens.push(...missing.map((w) => ({ token: newToken(), ...w })));
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify({ tokens: file.tokens }, null, 2), { mode: 0o600 });
  return file;
}

export function tokenFor(file: TokenFile, username: string): string {
  const e = file.tokens.find((t) => t.username === username);
  if (!e) throw new Error(`no token for user ${username}`);
  return e.token;
}

function safeEqual(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** the user behind a request's bearer token, or undefined (anonymous) */
export function authenticate(file: TokenFile, req: IncomingMessage): UserInfo | undefined {
  const h = req.headers.authorization;
  if (!h || !/^bearer /i.test(h)) return undefined;
  return authenticateToken(file, h.slice(7).trim());
}

/** the user a bearer token belongs to (TokenReview uses this too) */
export function authenticateToken(file: TokenFile, token: string): UserInfo | undefined {
  const e = file.tokens.find((t) => safeEqual(t.token, token));
  return e ? { username: e.username, groups: [...e.groups, GROUP_AUTHENTICATED] } : file.boundTokens?.(token);
}

'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/Button';

export function SignInForm({ initialError }: { initialError?: string }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    setBusy(false);
    if (res.ok) window.location.assign('/');
    else setError((await res.json().catch(() => ({}))).message ?? 'Sign-in failed.');
  };
  return (
    <form onSubmit={submit} className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <h1 className="text-xl font-semibold">Sign in to kubevirt-ts</h1>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Open the link <code>kv up</code> printed, or paste a bearer token: from <code>DIR/apiserver/tokens.json</code> or your kubeconfig, or on a cluster from <code>kubectl create token</code>.</p>
      <label className="mt-4 block text-sm font-medium" htmlFor="token">Token</label>
      <input id="token" type="password" autoFocus autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)}
        className="mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-2 font-mono text-sm dark:border-slate-700" />
      {error && <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">{error}</p>}
      <Button variant="primary" className="mt-4 w-full justify-center" disabled={!token || busy} type="submit">{busy ? 'Checking…' : 'Sign in'}</Button>
    </form>
  );
}

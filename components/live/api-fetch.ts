/** Kubernetes API calls from the browser through `/api/kube` (as the signed-in user). */
import { readApiFailure, type ApiFailure } from '@/lib/console/api-status';

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

export async function kubeFetch<T = unknown>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
  const res = await fetch(`/api/kube${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(readApiFailure(res.status, text));
  return (text ? JSON.parse(text) : undefined) as T;
}

'use client';
/**
 * What the signed-in user may do in a namespace: one SelfSubjectRulesReview per namespace, cached
 * by TanStack Query under the session's key (so signing in or out drops every namespace's answer).
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/console/query-keys';
import { allPermitted, namespacePermissions, type NamespacePermissions, type ResourceRule } from '@/lib/console/namespace-permissions';
import { kubeFetch } from './api-fetch';

interface RulesReview { status?: { resourceRules?: ResourceRule[] } }

async function reviewNamespace(namespace: string): Promise<NamespacePermissions> {
  try {
    const review = await kubeFetch<RulesReview>('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace },
    });
    return namespacePermissions(namespace, review.status?.resourceRules ?? []);
  } catch {
    return allPermitted(namespace); // the review itself failed: let the API server decide each action (its 403 shows)
  }
}

const options = (namespace: string) => ({
  queryKey: queryKeys.permissions(namespace),
  queryFn: () => reviewNamespace(namespace),
  staleTime: 60_000,
});

/** `undefined` until the API server answered: say nothing about rights before that. */
export function useNamespacePermissions(namespace: string | undefined): NamespacePermissions | undefined {
  const { data } = useQuery({ ...options(namespace ?? ''), enabled: !!namespace });
  return namespace ? data : undefined;
}

/** Several namespaces at once (a selection across namespaces, the create form's choices). */
export function useManyNamespacePermissions(namespaces: readonly string[]): Map<string, NamespacePermissions> {
  const results = useQueries({ queries: namespaces.map(options) });
  const out = new Map<string, NamespacePermissions>();
  results.forEach((r) => { if (r.data) out.set(r.data.namespace, r.data); });
  return out;
}

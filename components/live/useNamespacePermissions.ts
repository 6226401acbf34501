'use client';
/**
 * What the signed-in user may do in a namespace: one SelfSubjectRulesReview per namespace (and,
 * when it is `incomplete`, a SelfSubjectAccessReview per right its rules do not grant), cached by
 * TanStack Query under the session's key (so signing in or out drops every namespace's answer).
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/console/query-keys';
import { allPermitted, type Attributes, type NamespacePermissions } from '@/lib/console/namespace-permissions';
import { accessReviewBody, resolveNamespacePermissions, type RulesReviewStatus } from '@/lib/console/namespace-access-review';
import { kubeFetch } from './api-fetch';

interface RulesReview { status?: RulesReviewStatus }

async function accessReview(namespace: string, a: Attributes): Promise<boolean> {
  const review = await kubeFetch<{ status?: { allowed?: boolean } }>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', accessReviewBody(namespace, a));
  return review.status?.allowed === true;
}

async function reviewNamespace(namespace: string): Promise<NamespacePermissions> {
  try {
    const review = await kubeFetch<RulesReview>('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace },
    });
    return await resolveNamespacePermissions(namespace, review.status, accessReview);
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

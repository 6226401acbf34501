/** TanStack Query keys, from one factory (umami style). */
export const queryKeys = {
  list: (path: string, labelSelector = '', fieldSelector = '') => ['list', path, labelSelector, fieldSelector] as const,
  session: () => ['session'] as const,
  /** under session: invalidating the session drops every namespace's rights */
  permissions: (namespace: string) => ['session', 'permissions', namespace] as const,
  images: () => ['images'] as const,
  metrics: (namespace: string, name: string) => ['metrics', namespace, name] as const,
  guest: (namespace: string, name: string, uid: string) => ['guest', namespace, name, uid] as const,
};

/** The watch subscription id of a list key (one server watch per distinct key). */
export function subscriptionId(key: readonly unknown[]): string {
  return JSON.stringify(key);
}

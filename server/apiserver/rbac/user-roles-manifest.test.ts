import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderUserRolesManifest } from './user-roles-manifest';

const FILE = new URL('../../../deploy/cluster/rbac-user-roles.yaml', import.meta.url);

describe('deploy/cluster/rbac-user-roles.yaml', () => {
  it('is what scripts/gen-user-roles.ts renders from the embedded policy (cluster mode installs the same roles)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(renderUserRolesManifest());
  });

  it('holds KubeVirt\'s four user roles with their aggregation labels', () => {
    const docs = parseAllDocuments(readFileSync(FILE, 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { name: string; labels?: Record<string, string> } });
    const labels = (name: string) => docs.find((d) => d.kind === 'ClusterRole' && d.metadata.name === name)?.metadata.labels ?? {};
    expect(labels('kubevirt.io:view')['rbac.authorization.k8s.io/aggregate-to-view']).toBe('true');
    expect(labels('kubevirt.io:edit')['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(labels('kubevirt.io:admin')['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
    expect(Object.keys(labels('kubevirt.io:migrate')).filter((k) => k.includes('aggregate'))).toEqual([]);
  });
});

/**
 * Reading the cluster-mode manifests for tests: every object of deploy/cluster (kustomize resources
 * in order), the CRDs, and small lookups over them. Plain data, no cluster needed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { V1ClusterRole, V1Container, V1CustomResourceDefinition, V1PodTemplateSpec } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

export const DEPLOY_DIR = join(import.meta.dirname, '..');
export const CLUSTER_DIR = join(DEPLOY_DIR, 'cluster');
export const CRD_DIR = join(DEPLOY_DIR, 'crds');
export const NAMESPACE = 'kubevirt';

export interface Manifest { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [k: string]: unknown }
export interface Located { file: string; obj: Manifest }

/** Every YAML document of a file; a parse error throws with the file name. */
export function readYamlFile(path: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'));
  for (const d of docs) if (d.errors.length) throw new Error(`${path}: ${d.errors[0].message}`);
  return docs.map((d) => d.toJS()).filter((o) => o != null);
}

/** YAML files under a dir, recursively, relative paths. */
export function yamlFilesUnder(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return yamlFilesUnder(dir, p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

export function kustomizationResources(dir = CLUSTER_DIR): string[] {
  const [k] = readYamlFile(join(dir, 'kustomization.yaml')) as { resources: string[] }[];
  return k.resources;
}

/** The objects `kubectl apply -k deploy/cluster` creates (without the optional cert-manager part). */
export function clusterObjects(): Located[] {
  return kustomizationResources().flatMap((file) => (readYamlFile(join(CLUSTER_DIR, file)) as Manifest[]).map((obj) => ({ file, obj })));
}

export function findObject(kind: string, name: string): Manifest {
  const found = clusterObjects().find(({ obj }) => obj.kind === kind && obj.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/cluster`);
  return found.obj;
}

export const podTemplateOf = (workload: Manifest): V1PodTemplateSpec => (workload.spec as { template: V1PodTemplateSpec }).template;
export const workloads = () => clusterObjects().map((l) => l.obj).filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet');
export const containersOf = (w: Manifest): V1Container[] => [...(podTemplateOf(w).spec!.initContainers ?? []), ...podTemplateOf(w).spec!.containers];
export const clusterRoles = () => clusterObjects().map((l) => l.obj).filter((o) => o.kind === 'ClusterRole') as unknown as (V1ClusterRole & Manifest)[];

export interface CrdFacts { group: string; plural: string; kind: string; namespaced: boolean; subresources: string[] }

export function crdFacts(): CrdFacts[] {
  return (yamlFilesUnder(CRD_DIR).flatMap((f) => readYamlFile(join(CRD_DIR, f))) as V1CustomResourceDefinition[]).map((crd) => ({
    group: crd.spec.group, plural: crd.spec.names.plural, kind: crd.spec.names.kind, namespaced: crd.spec.scope === 'Namespaced',
    subresources: Object.keys(crd.spec.versions.find((v) => v.storage)?.subresources ?? {}),
  }));
}

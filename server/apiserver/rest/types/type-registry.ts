import { BUILTIN_TYPES } from './builtin-types';
import type { CustomResourceDefinition } from '../../../kube/structural-schema/crd-types';
import { resourceTypesFromCRD } from '../../crd/resource-type';
import { prepareSchema, type CompiledSchema } from '../../crd/schema';
import type { ServedType } from './resource-type';

export interface GroupInfo { name: string; versions: string[]; preferred: string }

/** kube's version priority: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > anything else */
export function compareVersions(a: string, b: string): number {
  const rank = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    const stage = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stage === 3 ? 3 : stage, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return a.localeCompare(b);
}

/** Every resource type served: the built-ins plus one entry per served CRD version. */
export class TypeRegistry {
  private crdTypes = new Map<string, ServedType[]>();
  private index = new Map<string, ServedType>();
  private schemas = new WeakMap<ServedType, CompiledSchema>();
  private listeners = new Set<() => void>();

  constructor() { this.rebuild(); }

  find(group: string, version: string, resource: string): ServedType | undefined {
    return this.index.get(`${group}/${version}/${resource}`);
  }

  /** the storage-version type of a group/resource (for controllers that work across versions) */
  findAnyVersion(group: string, resource: string): ServedType | undefined {
    return this.all().find((t) => t.group === group && t.resource === resource);
  }

  all(): ServedType[] { return [...this.index.values()]; }

  resourcesIn(group: string, version: string): ServedType[] {
    return this.all().filter((t) => t.group === group && t.version === version);
  }

  groups(): GroupInfo[] {
    const byGroup = new Map<string, Set<string>>();
    for (const t of this.index.values()) {
      if (!byGroup.has(t.group)) byGroup.set(t.group, new Set());
      byGroup.get(t.group)!.add(t.version);
    }
    return [...byGroup.entries()].map(([name, vs]) => {
      const versions = [...vs].sort(compareVersions);
      return { name, versions, preferred: versions[0] };
    });
  }

  /** serves exactly these CRDs (types of unchanged CRDs are kept, so schema caches survive) */
  replaceCRDs(crds: CustomResourceDefinition[]): void {
    const next = new Map<string, ServedType[]>();
    for (const crd of crds) {
      const prev = this.crdTypes.get(crd.metadata.name);
      const key = JSON.stringify(crd.spec);
      next.set(crd.metadata.name, prev && (prev as ServedType[] & { specKey?: string }).specKey === key ? prev : Object.assign(this.typesOf(crd), { specKey: key }));
    }
    const changed = next.size !== this.crdTypes.size || [...next].some(([k, v]) => this.crdTypes.get(k) !== v);
    if (!changed) return;
    this.crdTypes = next;
    this.rebuild();
  }

  private typesOf(crd: CustomResourceDefinition): ServedType[] {
    try {
      return resourceTypesFromCRD(crd).filter((t) => t.served).map((t): ServedType => ({ ...t }));
    } catch {
      return [];
    }
  }

  setCRD(crd: CustomResourceDefinition): void {
    const types = resourceTypesFromCRD(crd).filter((t) => t.served).map((t): ServedType => ({ ...t }));
    this.crdTypes.set(crd.metadata.name, types);
    this.rebuild();
  }

  removeCRD(name: string): void {
    if (this.crdTypes.delete(name)) this.rebuild();
  }

  schemaFor(rt: ServedType): CompiledSchema | undefined {
    if (!rt.schema) return undefined;
    let cs = this.schemas.get(rt);
    if (!cs) { cs = prepareSchema(rt); this.schemas.set(rt, cs); }
    return cs;
  }

  onChange(fn: () => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  private rebuild(): void {
    this.index.clear();
    for (const t of BUILTIN_TYPES) this.index.set(`${t.group}/${t.version}/${t.resource}`, t);
    for (const types of this.crdTypes.values()) {
      for (const t of types) this.index.set(`${t.group}/${t.version}/${t.resource}`, t);
    }
    for (const fn of this.listeners) fn();
  }
}

import type { CRDNames, CRDPrinterColumn, CRDSpecBody, CRDSubresources, CRDVersion } from '../../kube/structural-schema/crd-types';

/** One served group/version/resource, as the REST layer, discovery and OpenAPI see it. */
export interface ResourceType {
  group: string;
  version: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: { status: boolean; scale?: boolean };
  printerColumns: PrinterColumn[];
  /** openAPIV3Schema */
  schema?: object;
  storage: boolean;
  served: boolean;
  /** set for a version marked deprecated in its CRD */
  deprecated?: boolean;
  deprecationWarning?: string;
  /** extra field selector paths the CRD declares (spec.versions[].selectableFields), without the leading dot */
  selectableFields?: string[];
  /** the CRD's spec.subresources.scale paths, when a scale subresource is served */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority: number;
  jsonPath: string;
}

export const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** The served (and stored) versions of a CustomResourceDefinition (apiextensions.k8s.io/v1). */
export function resourceTypesFromCRD(crd: { spec?: Partial<CRDSpecBody> } | undefined): ResourceType[] {
  const spec: Partial<CRDSpecBody> = crd?.spec ?? {};
  const names: Partial<CRDNames> = spec.names ?? {};
  const kind = String(names.kind ?? '');
  return (spec.versions ?? []).map((v: CRDVersion): ResourceType => {
    const subresources: CRDSubresources = v.subresources ?? spec.subresources ?? {};
    const scale = subresources.scale;
    return {
      group: String(spec.group ?? ''),
      version: String(v.name),
      resource: String(names.plural ?? ''),
      kind,
      listKind: names.listKind ?? `${kind}List`,
      singular: names.singular ?? kind.toLowerCase(),
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      verbs: [...CUSTOM_RESOURCE_VERBS],
      subresources: { status: subresources.status !== undefined && subresources.status !== null, scale: Boolean(scale) },
      printerColumns: (v.additionalPrinterColumns ?? spec.additionalPrinterColumns ?? []).map(toPrinterColumn),
      schema: v.schema?.openAPIV3Schema ?? spec.validation?.openAPIV3Schema,
      storage: Boolean(v.storage),
      served: v.served !== false,
      ...(v.deprecated ? { deprecated: true, deprecationWarning: v.deprecationWarning ?? defaultDeprecation(spec.group, v.name, kind) } : {}),
      ...(v.selectableFields?.length ? { selectableFields: v.selectableFields.map((f) => String(f.jsonPath).replace(/^\./, '')) } : {}),
      ...(scale ? { scale: { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, labelSelectorPath: scale.labelSelectorPath } } : {}),
    };
  });
}

function toPrinterColumn(c: CRDPrinterColumn): PrinterColumn {
  return {
    name: String(c.name),
    type: String(c.type ?? 'string'),
    ...(c.format ? { format: String(c.format) } : {}),
    ...(c.description ? { description: String(c.description) } : {}),
    priority: Number(c.priority ?? 0),
    jsonPath: String(c.jsonPath ?? c.JSONPath ?? ''),
  };
}

/** kube's default warning for a deprecated custom resource version. */
const defaultDeprecation = (group: string | undefined, version: string, kind: string) =>
  `${group}/${version} ${kind} is deprecated`;

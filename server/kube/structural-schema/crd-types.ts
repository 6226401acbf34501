import type { JSONSchemaProps } from './json-schema-props';

/** The parts of an apiextensions.k8s.io/v1 CustomResourceDefinition we read, in its JSON spelling. */
export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: CRDSpecBody;
}

export interface CRDSpecBody {
  group: string;
  names: CRDNames;
  scope: string;
  versions: CRDVersion[];
  /** apiextensions v1beta1's per-CRD forms, still read when a version has none */
  subresources?: CRDSubresources;
  additionalPrinterColumns?: CRDPrinterColumn[];
  validation?: { openAPIV3Schema?: JSONSchemaProps };
}

export interface CRDNames {
  kind: string;
  plural: string;
  listKind?: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CRDVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CRDSubresources;
  additionalPrinterColumns?: CRDPrinterColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface CRDSubresources {
  status?: object | null;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface CRDPrinterColumn {
  name: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
  /** v1beta1 spelling */
  JSONPath?: string;
}

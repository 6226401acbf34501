import type { JSONSchemaProps } from './json-schema-props';

/** An openAPIV3Schema node compiled once for fast pruning, defaulting and validation. */
export interface SchemaNode {
  type?: string;
  format?: string;
  nullable: boolean;
  properties?: Map<string, SchemaNode>;
  /** schema for map values (additionalProperties) */
  additional?: SchemaNode;
  items?: SchemaNode;
  preserveUnknown: boolean;
  embedded: boolean;
  intOrString: boolean;
  required: string[];
  enumValues?: unknown[];
  default?: unknown;
  hasDefault: boolean;
  listType?: string;
  listMapKeys?: string[];
  raw: JSONSchemaProps;
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  not?: SchemaNode;
}

/** Compiles a structural schema (JSON) into SchemaNodes. */
export function compileSchemaNode(s: JSONSchemaProps | undefined): SchemaNode {
  const raw = s ?? {};
  const node: SchemaNode = {
    type: raw.type,
    format: raw.format,
    nullable: raw.nullable === true,
    preserveUnknown: raw['x-kubernetes-preserve-unknown-fields'] === true,
    embedded: raw['x-kubernetes-embedded-resource'] === true,
    intOrString: raw['x-kubernetes-int-or-string'] === true,
    required: Array.isArray(raw.required) ? raw.required : [],
    hasDefault: raw.default !== undefined,
    raw,
  };
  if (raw.default !== undefined) node.default = raw.default;
  if (Array.isArray(raw.enum)) node.enumValues = raw.enum;
  if (raw.properties) {
    node.properties = new Map(Object.entries(raw.properties).map(([k, v]) => [k, compileSchemaNode(v)]));
  }
  if (raw.additionalProperties && typeof raw.additionalProperties === 'object') {
    node.additional = compileSchemaNode(raw.additionalProperties);
  } else if (raw.additionalProperties === true) {
    node.preserveUnknown = true;
  }
  if (raw.items && typeof raw.items === 'object' && !Array.isArray(raw.items)) node.items = compileSchemaNode(raw.items);
  if (raw['x-kubernetes-list-type']) node.listType = raw['x-kubernetes-list-type'];
  if (Array.isArray(raw['x-kubernetes-list-map-keys'])) node.listMapKeys = raw['x-kubernetes-list-map-keys'];
  for (const k of ['anyOf', 'allOf', 'oneOf'] as const) {
    if (Array.isArray(raw[k]) && !(k === 'anyOf' && node.intOrString)) node[k] = raw[k].map(compileSchemaNode);
  }
  if (raw.not) node.not = compileSchemaNode(raw.not);
  return node;
}

/**
 * Turns Swagger 2.0 definitions (KubeVirt's openapi-spec) into the structural openAPIV3Schema a
 * CustomResourceDefinition needs: $refs inlined, no `default`s (openapi-gen emits Go zero values
 * that are not structural), Kubernetes' special types mapped to their CRD forms.
 */

import type { JSONSchemaProps } from '../../kube/structural-schema/json-schema-props';

/** the structural schema we produce */
type Schema = JSONSchemaProps;
/** a Swagger 2.0 schema as openapi-gen writes it: its `type` may also list several types */
interface SwaggerSchema {
  $ref?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, SwaggerSchema>;
  additionalProperties?: SwaggerSchema | boolean;
  items?: SwaggerSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  [keyword: string]: unknown;
}
type Definitions = Record<string, SwaggerSchema>;

const DEF_PREFIX = '#/definitions/';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1.';

/** apimachinery's Quantity grammar, as kube's own CRDs spell it. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const intOrString = (): Schema => ({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
const preserveObject = (): Schema => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

/** Definitions replaced by a fixed structural form. `nested` = not at the object root. */
const SPECIAL: Record<string, (nested: boolean) => Schema> = {
  [`${META}ObjectMeta`]: (nested) => (nested ? { ...preserveObject(), nullable: true } : { type: 'object' }),
  [`${META}Time`]: () => ({ type: 'string', format: 'date-time' }),
  [`${META}MicroTime`]: () => ({ type: 'string', format: 'date-time' }),
  [`${META}Duration`]: () => ({ type: 'string' }),
  [`${META}FieldsV1`]: () => preserveObject(),
  'k8s.io.apimachinery.pkg.runtime.RawExtension': () => preserveObject(),
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': () => intOrString(),
  'k8s.io.apimachinery.pkg.api.resource.Quantity': () => ({ ...intOrString(), pattern: QUANTITY_PATTERN }),
};

/** Value keywords a structural schema may carry over unchanged. */
const KEPT_KEYWORDS = [
  'description', 'type', 'format', 'enum', 'required', 'nullable', 'pattern', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'uniqueItems', 'multipleOf', 'minProperties', 'maxProperties', 'x-kubernetes-map-type',
];
/** Formats kube's CRD validation knows; others are dropped. */
const KNOWN_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'byte', 'date-time', 'date', 'uri', 'uuid']);

/** The structural schema of definition `name`, as the root of a custom resource. */
export function structuralSchemaFor(defs: Definitions, name: string): Schema {
  const root = convert(defs, { $ref: DEF_PREFIX + name }, [], false);
  // a CR's root always carries apiVersion, kind and metadata
  root.properties = { ...root.properties };
  root.properties.metadata = { type: 'object' };
  return root;
}

function convert(defs: Definitions, schema: SwaggerSchema, stack: string[], nested: boolean): Schema {
  if (schema.$ref) {
    const name = String(schema.$ref).slice(DEF_PREFIX.length);
    const withDescription = (s: Schema) => (schema.description ? { ...s, description: schema.description } : s);
    if (SPECIAL[name]) return withDescription(SPECIAL[name](nested));
    if (stack.includes(name)) return withDescription(preserveObject());
    const def = defs[name];
    if (!def) throw new Error(`unresolved $ref ${schema.$ref}`);
    return withDescription(convert(defs, def, [...stack, name], stack.length > 0 || nested));
  }
  const out: Schema = {};
  for (const k of KEPT_KEYWORDS) if (schema[k] !== undefined) out[k] = schema[k];
  if (out.format && !KNOWN_FORMATS.has(out.format)) delete out.format;
  const declared = schema.type;
  if (Array.isArray(schema.type)) {
    // ["string", "null"] → type string, nullable (out.type is schema.type, copied above)
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length !== schema.type.length) out.nullable = true;
    out.type = types[0];
  }
  if (schema.format === 'int-or-string' || isInlinedIntOrString(declared)) {
    return { ...intOrString(), ...(schema.description ? { description: schema.description } : {}) };
  }
  if (schema.properties) {
    out.type ??= 'object';
    out.properties = {};
    for (const [k, v] of Object.entries(schema.properties)) out.properties[k] = convert(defs, v, stack, true);
  } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    out.additionalProperties = convert(defs, schema.additionalProperties, stack, true);
  } else if (schema.additionalProperties === true) {
    Object.assign(out, preserveObject());
  }
  if (schema.items) out.items = convert(defs, schema.items, stack, true);
  if (out.type === 'object' && !out.properties && !out.additionalProperties && schema['x-kubernetes-preserve-unknown-fields']) {
    out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (!out.type && !out.anyOf) Object.assign(out, preserveObject());
  addListType(out, schema);
  return out;
}

/** kube-openapi inlines IntOrString fields (probe ports) as `type: ["string", "number"]`. */
function isInlinedIntOrString(type: unknown): boolean {
  return Array.isArray(type) && type.includes('string') && (type.includes('number') || type.includes('integer'));
}

/**
 * Keeps x-kubernetes-list-type only where kube accepts it: `map` needs object items whose map keys
 * are all required; `set` needs scalar items. Anything else becomes `atomic`.
 */
function addListType(out: Schema, schema: SwaggerSchema): void {
  const listType = schema['x-kubernetes-list-type'];
  if (!listType || out.type !== 'array') return;
  const items = out.items ?? {};
  if (listType === 'map') {
    const keys: string[] = schema['x-kubernetes-list-map-keys'] ?? [];
    const required = new Set<string>(items.required ?? []);
    if (items.type === 'object' && keys.length > 0 && keys.every((k) => required.has(k) && items.properties?.[k])) {
      out['x-kubernetes-list-type'] = 'map';
      out['x-kubernetes-list-map-keys'] = keys;
      return;
    }
    out['x-kubernetes-list-type'] = 'atomic';
    return;
  }
  if (listType === 'set') {
    out['x-kubernetes-list-type'] = ['string', 'integer', 'number', 'boolean'].includes(items.type ?? '') ? 'set' : 'atomic';
    return;
  }
  out['x-kubernetes-list-type'] = 'atomic';
}

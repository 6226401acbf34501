/**
 * An openAPIV3Schema node as it is written in a CustomResourceDefinition (apiextensions.k8s.io/v1
 * JSONSchemaProps, in its JSON spelling). The keywords we read are typed; any other keyword is
 * kept as an unknown JSON value.
 */
export interface JSONSchemaProps {
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  default?: unknown;
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  anyOf?: JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  [keyword: string]: unknown;
}

// The subset of the Kubernetes OpenAPI v3 schema (apiextensions.k8s.io/v1 JSONSchemaProps) that our
// CRDs use. The CRD YAML and the schema interpreter (api/schema/check.ts) both read these objects.

export interface CelValidationRule {
  rule: string;
  message: string;
  /** JSON path (relative to the schema the rule sits on) the API server reports the error on. */
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden' | 'FieldValueDuplicate';
}

export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  format?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps;
  required?: string[];
  items?: JSONSchemaProps;
  enum?: (string | number | boolean)[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  pattern?: string;
  /** With x-kubernetes-int-or-string: the two types a quantity may have (a structural schema's node then has no `type`). */
  anyOf?: JSONSchemaProps[];
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-validations'?: CelValidationRule[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
}

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[]; categories?: string[] };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: JSONSchemaProps };
      subresources?: {
        status?: Record<string, never>;
        scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
      };
      additionalPrinterColumns?: PrinterColumn[];
    }[];
  };
}

// Schema pieces shared by the CRDs: the root of an object, its status, conditions, the observed
// generation, a container's resources and the replica range rule. Leaf builders: ./field-schemas.ts.

import { QUANTITY_STRING_PATTERN, type Quantity, type ResourceRequirements } from '../common/checks.ts';
import type { Condition } from '../common/status-reader.ts';
import { mapOf, object, worded, type GivenObjectOf, type ObjectOf, type Schema } from '../schema/typed.ts';
import type { CelValidationRule, JSONSchemaProps } from './schema-types.ts';

/**
 * The root of a kind: apiVersion, kind, metadata, spec and status, with rules on the whole object (only
 * there can CEL see metadata.name). The spec is required rather than defaulted to {}: the API server
 * checks a default against the CEL rules of its own schema, and an empty spec breaks the rules (the
 * seed's engine.type and model.id); the validators need a spec to check.
 */
export function rootSchema(description: string, spec: JSONSchemaProps, status: JSONSchemaProps, rules?: JSONSchemaProps['x-kubernetes-validations']): JSONSchemaProps {
  return {
    type: 'object',
    description,
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status,
    },
    ...(rules ? { 'x-kubernetes-validations': rules } : {}),
  };
}

/** The status of the kinds beyond ModelDeployment: written by their controller only, so every field is optional to a reader. */
export function statusSchema<P extends Record<string, Schema>>(properties: P): Schema<ObjectOf<P, never>, false, GivenObjectOf<P, never>> {
  return object<P, never>('Observed state, written by the controller.', properties);
}

/**
 * minReplicas <= maxReplicas on an object that holds both (each may be left to its default), reported
 * on minReplicas with `message`, reported there by the API server and the validator alike (api/schema/check.ts).
 */
export function replicaRangeRule(message: string): CelValidationRule {
  return { rule: '!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas', message, fieldPath: '.minReplicas', reason: 'FieldValueInvalid' };
}

/** status.observedGeneration of the kinds beyond ModelDeployment. */
export const observedGenerationSchema: Schema<number, false> = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  description: 'metadata.generation of the spec this status describes.',
};

/**
 * A quantity as Kubernetes writes it in a CRD: an integer or a string (x-kubernetes-int-or-string, so the
 * node has no `type`, as structural schemas require). `pattern` applies to strings and `minimum` to
 * integers; neither allows a negative amount, which the pod would be refused for.
 */
export const quantitySchema: Schema<Quantity, false> = worded(
  {
    description: 'A non-negative quantity, e.g. "500m", "2Gi" or 4.',
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QUANTITY_STRING_PATTERN,
    minimum: 0,
  },
  // Numbers must be integers, as the int-or-string type requires: half a CPU is "500m" or "0.5".
  { problem: 'must be a non-negative quantity such as "500m", "2Gi" or 4' },
);

const quantities = (description: string) => mapOf(description, quantitySchema, { notThis: 'must be a map of resource names to quantities' });

/** `requests` and `limits` of a container, quantities by resource name (`examples` lists some names); other keys are pruned. */
export function resourcesSchema(description: string, examples = 'cpu, memory, ...'): Schema<ResourceRequirements, false> {
  return object(
    description,
    {
      requests: quantities(`Minimum resources, by resource name (${examples}).`),
      limits: quantities('Maximum resources, by resource name.'),
    },
    { notThis: 'must be an object with requests and/or limits' },
  );
}

/**
 * Kubernetes-style conditions. A map-type list keyed by `type`, so the core controller and a provider can
 * each own their own conditions through server-side apply without overwriting the other's.
 */
export const conditionsSchema: Schema<Condition[], false> = {
  type: 'array',
  description: 'Conditions of the resource, one per type.',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  items: {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string', maxLength: 316 },
      status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
      reason: { type: 'string', maxLength: 1024 },
      message: { type: 'string', maxLength: 32768 },
      lastTransitionTime: { type: 'string', format: 'date-time' },
      observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    },
  },
};

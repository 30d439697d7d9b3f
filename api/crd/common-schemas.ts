// Schema pieces shared by both CRDs.

import type { JSONSchemaProps } from './schema-types.ts';

/**
 * Kubernetes-style conditions. A map-type list keyed by `type`, so the core controller and a provider can
 * each own their own conditions through server-side apply without overwriting the other's.
 */
export const conditionsSchema: JSONSchemaProps = {
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

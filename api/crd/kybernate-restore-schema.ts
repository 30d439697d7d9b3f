// OpenAPI schema of KybernateRestore (seed 003 §3.2). Source of deploy/crds/kybernate.io_kybernaterestores.yaml.
// It enforces at admission what api/kybernate/validate-restore.ts checks, with the same messages.

import { DEFAULT_GPU_ENABLED, DEFAULT_RESTORE_TIMEOUT } from '../kybernate/defaults.ts';
import { KybernateMessage } from '../kybernate/messages.ts';
import { LABEL_VALUE_PATTERN, MAX_LABEL_VALUE_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_PATTERN } from '../kybernate/patterns.ts';
import { RESTORE_PHASES } from '../kybernate/values.ts';
import { resourcesSchema, rootSchema, statusSchema } from './common-schemas.ts';
import { bool, enumOf, image, int, str, timestamp } from './field-schemas.ts';
import { commonStatusFields, ownerNameRules } from './kybernate-common-schema.ts';
import type { JSONSchemaProps } from './schema-types.ts';

export const restoreSpecSchema: JSONSchemaProps = {
  type: 'object',
  description: 'Restore a checkpoint as a new pod.',
  properties: {
    checkpointRef: str('A KybernateCheckpoint in this namespace; the restore waits for it to complete.', {
      minLength: 1,
      maxLength: MAX_OBJECT_NAME_LENGTH,
      pattern: OBJECT_NAME_PATTERN,
    }),
    checkpointImage: image('A checkpoint image, e.g. containerd.io/checkpoint/<id>:<timestamp>, instead of checkpointRef.'),
    targetPod: {
      type: 'object',
      description: 'The restore pod: what may differ from the checkpointed one.',
      properties: {
        name: str('Name of the restore pod; <restore>-restored when omitted.', { minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH, pattern: OBJECT_NAME_PATTERN }),
        nodeSelector: {
          type: 'object',
          description: 'Node labels the restore pod must run on.',
          additionalProperties: str('A label value.', { maxLength: MAX_LABEL_VALUE_LENGTH, pattern: LABEL_VALUE_PATTERN }),
        },
        resources: resourcesSchema('Requests and limits of the restored container.', 'cpu, memory, nvidia.com/gpu, ...'),
      },
    },
    timeout: int('Seconds the restore may take, until its pod runs.', 1, { default: DEFAULT_RESTORE_TIMEOUT }),
    gpu: {
      type: 'object',
      description: 'GPU state: a compatible GPU must be available.',
      default: {},
      properties: { enabled: bool("Restore GPU memory too (CRIU's CUDA plugin).", { default: DEFAULT_GPU_ENABLED }) },
    },
  },
  'x-kubernetes-validations': [{ rule: 'has(self.checkpointRef) != has(self.checkpointImage)', message: KybernateMessage.exactlyOneSource, reason: 'FieldValueInvalid' }],
};

export const restoreStatusSchema: JSONSchemaProps = statusSchema({
  phase: enumOf(RESTORE_PHASES, 'Pending, Restoring, Running or Failed.'),
  restoredPodName: str('The restore pod.'),
  restoredPodUID: str('Its UID.'),
  restoreTime: timestamp('When the restored pod was seen running.'),
  counterValue: { type: 'integer', format: 'int64', description: "For debugging: the counter value the restored process continued from (the seed's counter workload)." },
  ...commonStatusFields,
});

export const restoreRootSchema: JSONSchemaProps = rootSchema(
  'KybernateRestore brings a checkpoint back as a new pod, annotated kybernate.io/restore-from for the node runtime that restores it.',
  restoreSpecSchema,
  restoreStatusSchema,
  ownerNameRules(KybernateMessage.restoreName),
);

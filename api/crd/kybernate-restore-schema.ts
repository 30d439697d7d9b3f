// OpenAPI schema of KybernateRestore (seed 003 §3.2). Source of deploy/crds/kybernate.io_kybernaterestores.yaml.
// It enforces at admission what api/kybernate/validate-restore.ts checks, with the same messages.

import { DEFAULT_GPU_ENABLED, DEFAULT_RESTORE_TIMEOUT } from '../kybernate/defaults.ts';
import { KybernateMessage } from '../kybernate/messages.ts';
import { LABEL_VALUE_PATTERN, MAX_LABEL_VALUE_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_PATTERN } from '../kybernate/patterns.ts';
import { RESTORE_PHASES } from '../kybernate/values.ts';
import { resourcesSchema, rootSchema, statusSchema } from './common-schemas.ts';
import { bool, enumOf, image, int, str, timestamp } from './field-schemas.ts';
import { commonStatusFields, ownerNameRules } from './kybernate-common-schema.ts';
import { mapOf, object, type Schema } from '../schema/typed.ts';
import type { JSONSchemaProps } from './schema-types.ts';

const podName = (description: string, what: string) => str(description, { minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH, pattern: OBJECT_NAME_PATTERN, what });

const LABEL_VALUE = `a label value (at most ${MAX_LABEL_VALUE_LENGTH} letters, digits, '-', '_' and '.', starting and ending with a letter or digit)`;

export const restoreSpecSchema = object(
  'Restore a checkpoint as a new pod.',
  {
    checkpointRef: podName('A KybernateCheckpoint in this namespace; the restore waits for it to complete.', 'a KybernateCheckpoint name (DNS-1123 subdomain)'),
    checkpointImage: image('A checkpoint image, e.g. containerd.io/checkpoint/<id>:<timestamp>, instead of checkpointRef.'),
    targetPod: object('The restore pod: what may differ from the checkpointed one.', {
      name: podName('Name of the restore pod; <restore>-restored when omitted.', 'a pod name (DNS-1123 subdomain)'),
      // The keys are left to the API server (their syntax is long).
      nodeSelector: mapOf('Node labels the restore pod must run on.', str('A label value.', { maxLength: MAX_LABEL_VALUE_LENGTH, pattern: LABEL_VALUE_PATTERN, what: LABEL_VALUE }), {
        notThis: 'must be a map of node labels to values',
      }),
      resources: resourcesSchema('Requests and limits of the restored container.', 'cpu, memory, nvidia.com/gpu, ...'),
    }),
    timeout: int('Seconds the restore may take, until its pod runs.', 1, { default: DEFAULT_RESTORE_TIMEOUT }),
    gpu: object('GPU state: a compatible GPU must be available.', { enabled: bool("Restore GPU memory too (CRIU's CUDA plugin).", { default: DEFAULT_GPU_ENABLED }) }, { default: {} }),
  },
  { 'x-kubernetes-validations': [{ rule: 'has(self.checkpointRef) != has(self.checkpointImage)', message: KybernateMessage.exactlyOneSource, reason: 'FieldValueInvalid' }] },
);

export const restoreStatusSchema = statusSchema({
  phase: enumOf(RESTORE_PHASES, 'Pending, Restoring, Running or Failed.'),
  restoredPodName: str('The restore pod.'),
  restoredPodUID: str('Its UID.'),
  restoreTime: timestamp('When the restored pod was seen running.'),
  counterValue: { type: 'integer', format: 'int64', description: "For debugging: the counter value the restored process continued from (the seed's counter workload)." } as Schema<number, false>,
  ...commonStatusFields,
});

export const restoreRootSchema: JSONSchemaProps = rootSchema(
  'KybernateRestore brings a checkpoint back as a new pod, annotated kybernate.io/restore-from for the node runtime that restores it.',
  restoreSpecSchema,
  restoreStatusSchema,
  ownerNameRules(KybernateMessage.restoreName),
);

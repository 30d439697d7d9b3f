// OpenAPI schema of KybernateCheckpoint (seed 003 §3.1). Source of deploy/crds/kybernate.io_kybernatecheckpoints.yaml.
// It enforces at admission what api/kybernate/validate-checkpoint.ts checks, with the same messages.
//
// `containerName` has no default: the seed's "first container" is only known once the pod is read.

import { DEFAULT_CHECKPOINT_TIMEOUT, DEFAULT_GPU_ENABLED, DEFAULT_LEAVE_RUNNING } from '../kybernate/defaults.ts';
import { ABSOLUTE_PATH_PATTERN, DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_PATTERN } from '../kybernate/patterns.ts';
import { CHECKPOINT_PHASES } from '../kybernate/values.ts';
import { rootSchema, statusSchema } from './common-schemas.ts';
import { bool, enumOf, int, str, timestamp } from './field-schemas.ts';
import { commonStatusFields, storageSchema } from './kybernate-common-schema.ts';
import { object } from '../schema/typed.ts';
import type { JSONSchemaProps } from './schema-types.ts';

export const checkpointSpecSchema = object(
  "Checkpoint one container of a running pod through its node's containerd (CRIU underneath).",
  {
    podName: str('The pod to checkpoint, in this namespace.', { minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH, pattern: OBJECT_NAME_PATTERN, what: 'a pod name (DNS-1123 subdomain)' }),
    containerName: str("The container to checkpoint; the pod's first container when omitted.", {
      minLength: 1,
      maxLength: MAX_DNS_LABEL_LENGTH,
      pattern: DNS_LABEL_PATTERN,
      what: 'a container name (DNS-1123 label)',
    }),
    leaveRunning: bool('Keep the container running after the checkpoint; false stops it (runc checkpoint --exit).', { default: DEFAULT_LEAVE_RUNNING }),
    timeout: int('Seconds the checkpoint may take before it fails.', 1, { default: DEFAULT_CHECKPOINT_TIMEOUT }),
    storage: storageSchema,
    gpu: object(
      "GPU state: CRIU's CUDA plugin.",
      {
        enabled: bool("Use CRIU's CUDA plugin to checkpoint GPU memory too.", { default: DEFAULT_GPU_ENABLED }),
        pluginPath: str("CRIU plugin directory on the node (CRIU_LIBS); the node worker's own when omitted.", { minLength: 1, pattern: ABSOLUTE_PATH_PATTERN, what: 'an absolute path' }),
      },
      { default: {} },
    ),
  },
  { required: ['podName'] },
);

export const checkpointStatusSchema = statusSchema({
  phase: enumOf(CHECKPOINT_PHASES, 'Pending, InProgress, Completed or Failed.'),
  checkpointRef: str('The checkpoint image, e.g. containerd.io/checkpoint/<id>:<timestamp>.'),
  checkpointSize: str('Size of the checkpoint, e.g. 2.2Gi.'),
  startTime: timestamp('When the checkpoint started.'),
  completionTime: timestamp('When it completed.'),
  nodeName: str("The node whose containerd holds the checkpoint."),
  containerID: str('The container checkpointed (containerd ID).'),
  ...commonStatusFields,
});

export const checkpointRootSchema: JSONSchemaProps = rootSchema(
  "KybernateCheckpoint checkpoints a running container (CRIU through containerd) into a checkpoint image.",
  checkpointSpecSchema,
  checkpointStatusSchema,
);

// OpenAPI schema of KybernateWorkload (seed 003 §3.3). Source of deploy/crds/kybernate.io_kybernateworkloads.yaml.
// It enforces at admission what api/kybernate/validate-workload.ts checks, with the same messages; the
// pod template is kept as given, so what it must hold only the workflow checks.

import { DEFAULT_ACTIVATOR, DEFAULT_IDLE_TIMEOUT, DEFAULT_SCALE_TO_ZERO, DEFAULT_SUSPEND_ENABLED } from '../kybernate/defaults.ts';
import { KybernateMessage } from '../kybernate/messages.ts';
import { DURATION_PATTERN, MAX_DURATION_LENGTH, MAX_URL_PATH_LENGTH, URL_PATH_PATTERN } from '../kybernate/patterns.ts';
import { WORKLOAD_PHASES } from '../kybernate/values.ts';
import { replicaRangeRule, rootSchema, statusSchema } from './common-schemas.ts';
import { bool, enumOf, int, port, str, timestamp } from './field-schemas.ts';
import { commonStatusFields, ownerNameRules, storageSchema } from './kybernate-common-schema.ts';
import { freeObject, object, refined } from '../schema/typed.ts';
import { checkPodTemplate } from '../kybernate/pod-template.ts';
import type { JSONSchemaProps } from './schema-types.ts';

const duration = <D extends string>(description: string, fallback: D) =>
  str(`${description} A positive duration in whole units: ms, s, m, h (e.g. 30s, 5m, 1h30m).`, {
    maxLength: MAX_DURATION_LENGTH,
    pattern: DURATION_PATTERN,
    default: fallback,
    what: 'a positive duration such as "30s", "5m" or "1h30m" (whole numbers; units ms, s, m, h)',
  });

export const workloadSpecSchema = object(
  'A pod that is checkpointed and removed when idle, and restored on the next request.',
  {
    template: refined(freeObject('A pod template (metadata, spec): the pod, named after the workload; kept as given.'), checkPodTemplate),
    suspend: object(
      'Suspend when idle: checkpoint the pod, then delete it.',
      {
        enabled: bool('Suspend after idleTimeout without requests.', { default: DEFAULT_SUSPEND_ENABLED }),
        idleTimeout: duration('Time without requests before the workload is suspended.', DEFAULT_IDLE_TIMEOUT),
        storage: storageSchema,
      },
      { default: {} },
    ),
    scaleToZero: object(
      'Replica bounds.',
      {
        enabled: bool('Allow scaling to zero.', { default: DEFAULT_SCALE_TO_ZERO.enabled }),
        minReplicas: int('Fewest replicas.', 0, { default: DEFAULT_SCALE_TO_ZERO.minReplicas }),
        maxReplicas: int('Most replicas.', 1, { default: DEFAULT_SCALE_TO_ZERO.maxReplicas }),
      },
      { default: {}, 'x-kubernetes-validations': [replicaRangeRule(KybernateMessage.replicaBounds)] },
    ),
    activator: object(
      'Wake on request: an endpoint that receives requests, wakes a suspended workload and holds them until it runs.',
      {
        enabled: bool('Run the activator.', { default: DEFAULT_ACTIVATOR.enabled }),
        port: port('Port the workload serves on.', { default: DEFAULT_ACTIVATOR.port }),
        healthPath: str('Path that answers once the workload is ready.', {
          maxLength: MAX_URL_PATH_LENGTH,
          pattern: URL_PATH_PATTERN,
          default: DEFAULT_ACTIVATOR.healthPath,
          what: "a path starting with '/', without whitespace",
        }),
        queueTimeout: duration('Longest a request is held while the workload wakes.', DEFAULT_ACTIVATOR.queueTimeout),
      },
      { default: {} },
    ),
  },
  { required: ['template'] },
);

export const workloadStatusSchema = statusSchema({
  phase: enumOf(WORKLOAD_PHASES, 'Pending, Running, Suspending, Suspended, Restoring or Failed.'),
  activeReplicas: int('Running pods.', 0),
  suspendedCheckpoints: int('Suspends that ended in a checkpoint.', 0),
  lastActivityTime: timestamp('When the last request was seen.'),
  podName: str("The workload's pod."),
  ...commonStatusFields,
});

export const workloadRootSchema: JSONSchemaProps = rootSchema(
  'KybernateWorkload runs a pod that is checkpointed and removed when idle, and restored on the next request.',
  workloadSpecSchema,
  workloadStatusSchema,
  ownerNameRules(KybernateMessage.workloadName),
);

// The FlameCluster declaration (seed 004 §5.4): the typed schema its spec types derive from
// (api/flame/types.ts), its validator interprets (api/schema/check.ts) and deploy/crds/flame.xflops.io_flameclusters.yaml
// serializes, so `kubectl apply` and the controller refuse a broken cluster in the same terms.

import { MAX_COUNT } from '../common/checks.ts';
import { CLUSTER_NAME_PATTERN, MAX_CHILD_NAME_LENGTH, flameNames } from '../flame/names.ts';
import { observedGenerationSchema, resourcesSchema, rootSchema, statusSchema } from './common-schemas.ts';
import { image as imageSchema, str } from './field-schemas.ts';
import { count, object } from '../schema/typed.ts';
import type { CelValidationRule, JSONSchemaProps } from './schema-types.ts';

/** An image reference without whitespace (a required field: empty is "required"). */
const image = (component: string, example: string) =>
  imageSchema(`Container image of the ${component}, with an explicit tag (e.g. ${example}).`, { problem: 'must not contain whitespace' });

const resources = (component: string) => resourcesSchema(`Resource requests and limits of the ${component} container, passed to its pod unchanged.`);

export const flameClusterSpecSchema = object(
  'A Flame cluster: one session manager, executor managers and the object cache Service.',
  {
    sessionManager: object(
      'The session manager (a single pod) and the `cluster` section of flame-cluster.yaml.',
      {
        image: image('session manager', 'xflops/flame-session:v0.1.0'),
        resources: resources('session manager'),
        slot: str('Resource slot definition, e.g. "cpu=1,mem=1g" (cluster.slot).'),
        policy: str('Scheduling policy, e.g. "priority" (cluster.policy).'),
        storage: str('Storage backend URI, e.g. "sqlite://flame.db" (cluster.storage).'),
      },
      { required: ['image'] },
    ),
    executorManager: object(
      'The executor manager pods and the `executors` section of flame-cluster.yaml.',
      {
        image: image('executor manager', 'xflops/flame-executor:v0.1.0'),
        replicas: count('Number of executor manager pods; 0 runs the session manager alone.', 0, { maximum: MAX_COUNT }),
        resources: resources('executor manager'),
        shim: str('Executor shim type, e.g. "host" (executors.shim).'),
        maxExecutors: count('executors.limits.max_executors; 1 when omitted.', 1, { maximum: MAX_COUNT }),
      },
      { required: ['image', 'replicas'] },
    ),
    objectCache: object('The `cache` section of flame-cluster.yaml (its endpoint is the object cache Service).', {
      networkInterface: str('Network interface for the cache, e.g. "eth0" (cache.network_interface).'),
      storage: str('Cache storage path, e.g. "/var/lib/flame/cache" (cache.storage).'),
    }),
  },
  { required: ['sessionManager', 'executorManager'] },
);

export const flameClusterStatusSchema = statusSchema({
  sessionManager: object(undefined, {
    ready: count('Ready session manager pods (0 or 1).', 0),
    endpoint: str('Where executors and clients reach the session manager.'),
  }),
  executorManager: object(undefined, {
    replicas: count('Requested executor manager pods.', 0),
    ready: count('Ready executor manager pods.', 0),
  }),
  state: str('Pending, Running or Failed.', { enum: ['Pending', 'Running', 'Failed'] }),
  configGeneration: count('Bumped whenever the generated flame-cluster.yaml changes.', 0, { format: 'int64' }),
  observedGeneration: observedGenerationSchema,
  message: str('Human-readable summary.'),
});

const SESSION_MANAGER_SUFFIX = flameNames.sessionManager('').length;
const EXECUTOR_SUFFIX = flameNames.executor('', 0).length - 1;

/**
 * Rules on the whole object (only there can CEL see metadata.name). The API server takes no fieldPath
 * into metadata (its schema has no properties), so the messages name the field themselves. Guarded with
 * has() so that a missing field is reported by `required`, not as a CEL error.
 */
export const flameClusterRootRules: CelValidationRule[] = [
  {
    rule: `self.metadata.name.matches('${CLUSTER_NAME_PATTERN}')`,
    message:
      "metadata.name must be a DNS-1035 label (lower-case letters, digits and '-', starting with a letter and ending with a letter or digit), since it prefixes the Service names",
    reason: 'FieldValueInvalid',
  },
  {
    // The last executor pod, <name>-executor-manager-<replicas-1>, or <name>-session-manager without executors.
    rule:
      `!has(self.spec) || !has(self.spec.executorManager) || !has(self.spec.executorManager.replicas) || ` +
      `size(self.metadata.name) + (self.spec.executorManager.replicas > 0 ? ${EXECUTOR_SUFFIX} + size(string(int(self.spec.executorManager.replicas) - 1)) : ${SESSION_MANAGER_SUFFIX}) <= ${MAX_CHILD_NAME_LENGTH}`,
    message: `metadata.name is too long: the longest pod name, <name>-executor-manager-<replicas-1> (or <name>-session-manager with 0 replicas), must be at most ${MAX_CHILD_NAME_LENGTH} characters, since pod names become hostnames, which must be DNS labels`,
    reason: 'FieldValueInvalid',
  },
];

export const flameClusterRootSchema: JSONSchemaProps = rootSchema(
  'FlameCluster runs a Flame cluster (xflops/flame): a session manager, executor managers and their Services, from one manifest.',
  flameClusterSpecSchema,
  flameClusterStatusSchema,
  flameClusterRootRules,
);

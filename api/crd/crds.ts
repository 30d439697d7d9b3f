// The CustomResourceDefinitions as data. `npm run crds` serializes them into deploy/crds/.

import { GROUP, MODEL_DEPLOYMENT, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG, PROVIDER_CONFIG_PLURAL } from '../constants.ts';
import { FLAME_CLUSTER, FLAME_CLUSTER_PLURAL, FLAME_GROUP } from '../flame/constants.ts';
import { ASYA_GROUP, ASYNC_ACTOR, ASYNC_ACTOR_PLURAL } from '../asya/constants.ts';
import { CHECKPOINT, CHECKPOINT_PLURAL, KYBERNATE_CATEGORY, KYBERNATE_GROUP, RESTORE, RESTORE_PLURAL, WORKLOAD, WORKLOAD_PLURAL } from '../kybernate/constants.ts';
import { asyncActorRootSchema } from './async-actor-schema.ts';
import { rootSchema } from './common-schemas.ts';
import { customResourceDefinition } from './crd-builder.ts';
import { flameClusterRootSchema } from './flame-cluster-schema.ts';
import { withFriendlyPatterns } from './friendly-patterns.ts';
import { checkpointRootSchema } from './kybernate-checkpoint-schema.ts';
import { restoreRootSchema } from './kybernate-restore-schema.ts';
import { workloadRootSchema } from './kybernate-workload-schema.ts';
import { modelDeploymentSpecSchema, modelDeploymentStatusSchema } from './model-deployment-schema.ts';
import { providerConfigSpecSchema, providerConfigStatusSchema } from './provider-config-schema.ts';
import type { CustomResourceDefinition } from './schema-types.ts';

export const modelDeploymentCrd = customResourceDefinition({
  ...MODEL_DEPLOYMENT,
  category: 'kubeairunway',
  schema: rootSchema(
    'ModelDeployment is one LLM inference deployment, served by an inference provider (KAITO, Dynamo, KubeRay, ...).',
    withFriendlyPatterns(modelDeploymentSpecSchema),
    modelDeploymentStatusSchema,
  ),
  subresources: {
    status: {},
    // No labelSelectorPath: the pods belong to the provider's resources and carry provider-specific
    // labels, and the seed leaves HPA autoscaling out of scope. `kubectl scale` works without it.
    scale: { specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas.ready' },
  },
  printerColumns: [
    { name: 'Provider', type: 'string', jsonPath: '.status.provider.name' },
    { name: 'Engine', type: 'string', jsonPath: '.spec.engine.type' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.replicas.ready', description: 'Ready replicas' },
  ],
});

export const providerConfigCrd = customResourceDefinition({
  ...PROVIDER_CONFIG,
  category: 'kubeairunway',
  scope: 'Cluster',
  schema: rootSchema(
    'InferenceProviderConfig registers an inference provider: its capabilities and CEL selection rules.',
    providerConfigSpecSchema,
    providerConfigStatusSchema,
  ),
  printerColumns: [
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
    { name: 'Version', type: 'string', jsonPath: '.status.version' },
  ],
});

/** FlameCluster (seed 004): its own API group, reconciled by the same engine. */
export const flameClusterCrd = customResourceDefinition({
  ...FLAME_CLUSTER,
  category: 'flame',
  schema: flameClusterRootSchema,
  printerColumns: [
    { name: 'State', type: 'string', jsonPath: '.status.state' },
    { name: 'Ready Executors', type: 'integer', jsonPath: '.status.executorManager.ready', description: 'Ready executor manager pods' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.executorManager.replicas', description: 'Requested executor manager pods' },
  ],
});

/** AsyncActor (seed 002): its own API group, reconciled by the same engine. */
export const asyncActorCrd = customResourceDefinition({
  ...ASYNC_ACTOR,
  category: 'asya',
  schema: asyncActorRootSchema,
  printerColumns: [
    { name: 'Mode', type: 'string', jsonPath: '.status.mode' },
    { name: 'Target', type: 'string', jsonPath: '.status.resolvedTarget', description: 'The workload that runs the actor (Kind/namespace/name)' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready replicas' },
    { name: 'Status', type: 'string', jsonPath: '.status.status' },
  ],
});

/** The Kybernate kinds (seed 003): namespaced in kybernate.io, listed together by `kubectl get kybernate`. */

export const kybernateCheckpointCrd = customResourceDefinition({
  ...CHECKPOINT,
  category: KYBERNATE_CATEGORY,
  schema: checkpointRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.spec.podName' },
    { name: 'Size', type: 'string', jsonPath: '.status.checkpointSize' },
    { name: 'Node', type: 'string', jsonPath: '.status.nodeName', priority: 1 },
    { name: 'Ref', type: 'string', jsonPath: '.status.checkpointRef', description: 'The checkpoint image', priority: 1 },
  ],
});

export const kybernateRestoreCrd = customResourceDefinition({
  ...RESTORE,
  category: KYBERNATE_CATEGORY,
  schema: restoreRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Checkpoint', type: 'string', jsonPath: '.spec.checkpointRef' },
    { name: 'Pod', type: 'string', jsonPath: '.status.restoredPodName', description: 'The restore pod' },
    { name: 'Image', type: 'string', jsonPath: '.spec.checkpointImage', priority: 1 },
  ],
});

export const kybernateWorkloadCrd = customResourceDefinition({
  ...WORKLOAD,
  category: KYBERNATE_CATEGORY,
  schema: workloadRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.status.podName' },
    { name: 'Checkpoints', type: 'integer', jsonPath: '.status.suspendedCheckpoints', description: 'Suspends that ended in a checkpoint' },
    { name: 'Last Activity', type: 'date', jsonPath: '.status.lastActivityTime' },
  ],
});

/** File name under deploy/crds/ → CRD, in the order they are written. */
export const crdFiles: readonly { file: string; crd: CustomResourceDefinition }[] = [
  { file: `${GROUP}_${MODEL_DEPLOYMENT_PLURAL}.yaml`, crd: modelDeploymentCrd },
  { file: `${GROUP}_${PROVIDER_CONFIG_PLURAL}.yaml`, crd: providerConfigCrd },
  { file: `${FLAME_GROUP}_${FLAME_CLUSTER_PLURAL}.yaml`, crd: flameClusterCrd },
  { file: `${ASYA_GROUP}_${ASYNC_ACTOR_PLURAL}.yaml`, crd: asyncActorCrd },
  { file: `${KYBERNATE_GROUP}_${CHECKPOINT_PLURAL}.yaml`, crd: kybernateCheckpointCrd },
  { file: `${KYBERNATE_GROUP}_${RESTORE_PLURAL}.yaml`, crd: kybernateRestoreCrd },
  { file: `${KYBERNATE_GROUP}_${WORKLOAD_PLURAL}.yaml`, crd: kybernateWorkloadCrd },
];

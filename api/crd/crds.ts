// The CustomResourceDefinitions as data. `npm run crds` serializes them into deploy/crds/.

import {
  GROUP,
  MODEL_DEPLOYMENT_KIND,
  MODEL_DEPLOYMENT_PLURAL,
  MODEL_DEPLOYMENT_SHORT_NAME,
  MODEL_DEPLOYMENT_SINGULAR,
  PROVIDER_CONFIG_KIND,
  PROVIDER_CONFIG_PLURAL,
  PROVIDER_CONFIG_SINGULAR,
  VERSION,
} from '../constants.ts';
import {
  FLAME_CLUSTER_KIND,
  FLAME_CLUSTER_PLURAL,
  FLAME_CLUSTER_SHORT_NAME,
  FLAME_CLUSTER_SINGULAR,
  FLAME_GROUP,
  FLAME_VERSION,
} from '../flame/constants.ts';
import {
  ASYA_GROUP,
  ASYA_VERSION,
  ASYNC_ACTOR_KIND,
  ASYNC_ACTOR_PLURAL,
  ASYNC_ACTOR_SHORT_NAMES,
  ASYNC_ACTOR_SINGULAR,
} from '../asya/constants.ts';
import {
  CHECKPOINT_KIND,
  CHECKPOINT_PLURAL,
  CHECKPOINT_SHORT_NAMES,
  CHECKPOINT_SINGULAR,
  KYBERNATE_CATEGORY,
  KYBERNATE_GROUP,
  KYBERNATE_VERSION,
  RESTORE_KIND,
  RESTORE_PLURAL,
  RESTORE_SHORT_NAMES,
  RESTORE_SINGULAR,
  WORKLOAD_KIND,
  WORKLOAD_PLURAL,
  WORKLOAD_SHORT_NAMES,
  WORKLOAD_SINGULAR,
} from '../kybernate/constants.ts';
import { asyncActorRootSchema } from './async-actor-schema.ts';
import { rootSchema } from './common-schemas.ts';
import { flameClusterRootSchema } from './flame-cluster-schema.ts';
import { checkpointRootSchema } from './kybernate-checkpoint-schema.ts';
import { restoreRootSchema } from './kybernate-restore-schema.ts';
import { workloadRootSchema } from './kybernate-workload-schema.ts';
import { modelDeploymentSpecSchema, modelDeploymentStatusSchema } from './model-deployment-schema.ts';
import { providerConfigSpecSchema, providerConfigStatusSchema } from './provider-config-schema.ts';
import type { CustomResourceDefinition, JSONSchemaProps, PrinterColumn } from './schema-types.ts';

export const modelDeploymentCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${MODEL_DEPLOYMENT_PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    names: {
      kind: MODEL_DEPLOYMENT_KIND,
      listKind: `${MODEL_DEPLOYMENT_KIND}List`,
      plural: MODEL_DEPLOYMENT_PLURAL,
      singular: MODEL_DEPLOYMENT_SINGULAR,
      shortNames: [MODEL_DEPLOYMENT_SHORT_NAME],
      categories: ['kubeairunway'],
    },
    scope: 'Namespaced',
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: rootSchema(
            'ModelDeployment is one LLM inference deployment, served by an inference provider (KAITO, Dynamo, KubeRay, ...).',
            modelDeploymentSpecSchema,
            modelDeploymentStatusSchema,
          ),
        },
        subresources: {
          status: {},
          // No labelSelectorPath: the pods belong to the provider's resources and carry provider-specific
          // labels, and the seed leaves HPA autoscaling out of scope. `kubectl scale` works without it.
          scale: { specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas.ready' },
        },
        additionalPrinterColumns: [
          { name: 'Provider', type: 'string', jsonPath: '.status.provider.name' },
          { name: 'Engine', type: 'string', jsonPath: '.spec.engine.type' },
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          { name: 'Ready', type: 'integer', jsonPath: '.status.replicas.ready', description: 'Ready replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

export const providerConfigCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PROVIDER_CONFIG_PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    names: {
      kind: PROVIDER_CONFIG_KIND,
      listKind: `${PROVIDER_CONFIG_KIND}List`,
      plural: PROVIDER_CONFIG_PLURAL,
      singular: PROVIDER_CONFIG_SINGULAR,
      categories: ['kubeairunway'],
    },
    scope: 'Cluster',
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: rootSchema(
            'InferenceProviderConfig registers an inference provider: its capabilities and CEL selection rules.',
            providerConfigSpecSchema,
            providerConfigStatusSchema,
          ),
        },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
          { name: 'Version', type: 'string', jsonPath: '.status.version' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

/** FlameCluster (seed 004): its own API group, reconciled by the same engine. */
export const flameClusterCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${FLAME_CLUSTER_PLURAL}.${FLAME_GROUP}` },
  spec: {
    group: FLAME_GROUP,
    names: {
      kind: FLAME_CLUSTER_KIND,
      listKind: `${FLAME_CLUSTER_KIND}List`,
      plural: FLAME_CLUSTER_PLURAL,
      singular: FLAME_CLUSTER_SINGULAR,
      shortNames: [FLAME_CLUSTER_SHORT_NAME],
      categories: ['flame'],
    },
    scope: 'Namespaced',
    versions: [
      {
        name: FLAME_VERSION,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: flameClusterRootSchema },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'State', type: 'string', jsonPath: '.status.state' },
          { name: 'Ready Executors', type: 'integer', jsonPath: '.status.executorManager.ready', description: 'Ready executor manager pods' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.executorManager.replicas', description: 'Requested executor manager pods' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

/** AsyncActor (seed 002): its own API group, reconciled by the same engine. */
export const asyncActorCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${ASYNC_ACTOR_PLURAL}.${ASYA_GROUP}` },
  spec: {
    group: ASYA_GROUP,
    names: {
      kind: ASYNC_ACTOR_KIND,
      listKind: `${ASYNC_ACTOR_KIND}List`,
      plural: ASYNC_ACTOR_PLURAL,
      singular: ASYNC_ACTOR_SINGULAR,
      shortNames: [...ASYNC_ACTOR_SHORT_NAMES],
      categories: ['asya'],
    },
    scope: 'Namespaced',
    versions: [
      {
        name: ASYA_VERSION,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: asyncActorRootSchema },
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Mode', type: 'string', jsonPath: '.status.mode' },
          { name: 'Target', type: 'string', jsonPath: '.status.resolvedTarget', description: 'The workload that runs the actor (Kind/namespace/name)' },
          { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready replicas' },
          { name: 'Status', type: 'string', jsonPath: '.status.status' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

/** A Kybernate kind (seed 003): namespaced in kybernate.io, with a status subresource and the category `kybernate`. */
function kybernateCrd(
  names: { kind: string; plural: string; singular: string; shortNames: readonly string[] },
  openAPIV3Schema: JSONSchemaProps,
  additionalPrinterColumns: PrinterColumn[],
): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${KYBERNATE_GROUP}` },
    spec: {
      group: KYBERNATE_GROUP,
      names: { ...names, listKind: `${names.kind}List`, shortNames: [...names.shortNames], categories: [KYBERNATE_CATEGORY] },
      scope: 'Namespaced',
      versions: [{ name: KYBERNATE_VERSION, served: true, storage: true, schema: { openAPIV3Schema }, subresources: { status: {} }, additionalPrinterColumns }],
    },
  };
}

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export const kybernateCheckpointCrd = kybernateCrd(
  { kind: CHECKPOINT_KIND, plural: CHECKPOINT_PLURAL, singular: CHECKPOINT_SINGULAR, shortNames: CHECKPOINT_SHORT_NAMES },
  checkpointRootSchema,
  [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.spec.podName' },
    { name: 'Size', type: 'string', jsonPath: '.status.checkpointSize' },
    { name: 'Node', type: 'string', jsonPath: '.status.nodeName', priority: 1 },
    { name: 'Ref', type: 'string', jsonPath: '.status.checkpointRef', description: 'The checkpoint image', priority: 1 },
    AGE,
  ],
);

export const kybernateRestoreCrd = kybernateCrd(
  { kind: RESTORE_KIND, plural: RESTORE_PLURAL, singular: RESTORE_SINGULAR, shortNames: RESTORE_SHORT_NAMES },
  restoreRootSchema,
  [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Checkpoint', type: 'string', jsonPath: '.spec.checkpointRef' },
    { name: 'Pod', type: 'string', jsonPath: '.status.restoredPodName', description: 'The restore pod' },
    { name: 'Image', type: 'string', jsonPath: '.spec.checkpointImage', priority: 1 },
    AGE,
  ],
);

export const kybernateWorkloadCrd = kybernateCrd(
  { kind: WORKLOAD_KIND, plural: WORKLOAD_PLURAL, singular: WORKLOAD_SINGULAR, shortNames: WORKLOAD_SHORT_NAMES },
  workloadRootSchema,
  [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.status.podName' },
    { name: 'Checkpoints', type: 'integer', jsonPath: '.status.suspendedCheckpoints', description: 'Suspends that ended in a checkpoint' },
    { name: 'Last Activity', type: 'date', jsonPath: '.status.lastActivityTime' },
    AGE,
  ],
);

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

// The kubeairunway API as TypeScript types: ModelDeployment (namespaced) and InferenceProviderConfig
// (cluster-scoped), both in kubeairunway.ai/v1alpha1. The shapes follow seed 001 §3.9 and §4.1. The
// specs and statuses derive from their declarations (api/crd/); metadata is written here. Every field of
// ModelDeployment's spec is optional (`Given`) because the API server stores what users wrote;
// `applyDefaults` (api/defaults.ts) fills the gaps and `validate` (api/validate.ts) reports what is
// still missing.

import type { ObjectMetadata } from './common/checks.ts';
import type { ENGINE_TYPES, MODEL_SOURCES, PHASES, SERVING_MODES } from './constants.ts';
import type { Condition } from './common/status-reader.ts';
import type { modelDeploymentSpecSchema, modelDeploymentStatusSchema } from './crd/model-deployment-schema.ts';
import type { providerConfigSpecSchema, providerConfigStatusSchema } from './crd/provider-config-schema.ts';
import type { OverrideSchema } from './overrides.ts';
import type { Given, Static } from './schema/typed.ts';

export type ModelSource = (typeof MODEL_SOURCES)[number];
export type EngineType = (typeof ENGINE_TYPES)[number];
export type ServingMode = (typeof SERVING_MODES)[number];
export type ProviderName = string; // dynamo | kaito | kuberay | any third-party provider
export type Phase = (typeof PHASES)[number];
export type ConditionStatus = Condition['status'];

/**
 * Minimal object metadata: only what the controller reads or writes. The fields every kind keeps
 * (api/common/checks.ts ObjectMetadata), all optional here since ModelDeployment's validator reads the
 * stored object as it is, and the two only this controller reads.
 */
export interface ObjectMeta extends Partial<ObjectMetadata> {
  creationTimestamp?: string;
  ownerReferences?: OwnerReference[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

// ---------------------------------------------------------------- ModelDeployment spec

/** The spec as a manifest may give it, declared once in its schema (api/crd/model-deployment-schema.ts). */
export type ModelDeploymentSpec = Given<typeof modelDeploymentSpecSchema>;
export type ModelSpec = NonNullable<ModelDeploymentSpec['model']>;
/** Explicit provider (auto-selected when empty) and its free-form settings (each provider publishes an OverrideSchema for them). */
export type ProviderSpec = NonNullable<ModelDeploymentSpec['provider']>;
export type ProviderOverrides = NonNullable<ProviderSpec['overrides']>;
export type EngineSpec = NonNullable<ModelDeploymentSpec['engine']>;
export type ServingSpec = NonNullable<ModelDeploymentSpec['serving']>;
export type ScalingSpec = NonNullable<ModelDeploymentSpec['scaling']>;
/** One disaggregated component (prefill or decode workers). */
export type ComponentScalingSpec = NonNullable<ScalingSpec['prefill']>;
export type ResourcesSpec = NonNullable<ModelDeploymentSpec['resources']>;
export type GpuSpec = NonNullable<ResourcesSpec['gpu']>;
/** valueFrom is kept opaque: the controller only passes it to the provider resource. */
export type EnvVar = NonNullable<ModelDeploymentSpec['env']>[number];
export type PodTemplateSpec = NonNullable<ModelDeploymentSpec['podTemplate']>;
export type SecretsSpec = NonNullable<ModelDeploymentSpec['secrets']>;
export type Toleration = NonNullable<ModelDeploymentSpec['tolerations']>[number];

// ---------------------------------------------------------------- ModelDeployment status

/** A Kubernetes condition, as every kind's status lists them. */
export type { Condition };

/** The status as declared once in its schema (api/crd/model-deployment-schema.ts): every field optional, each written by its owner. */
export type ModelDeploymentStatus = Static<typeof modelDeploymentStatusSchema>;
/** `name` and `selectedReason` are the core controller's; `resourceName` and `resourceKind` the provider's. */
export type ProviderStatus = NonNullable<ModelDeploymentStatus['provider']>;
export type ReplicaStatus = NonNullable<ModelDeploymentStatus['replicas']>;
export type EndpointStatus = NonNullable<ModelDeploymentStatus['endpoint']>;
/** Where the deployment is reached through its Gateway (api/crd/gateway-schema.ts). */
export type GatewayStatus = NonNullable<ModelDeploymentStatus['gateway']>;

export interface ModelDeployment {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ModelDeploymentSpec;
  status?: ModelDeploymentStatus;
}

// ---------------------------------------------------------------- InferenceProviderConfig

/**
 * The spec as the API server stores it (selection rules with their default priority), declared once in
 * its schema (api/crd/provider-config-schema.ts). The override schema is free-form there (it is
 * recursive); read it with `overrideSchemaOf` (api/override-schema-shape.ts).
 */
export type InferenceProviderConfigSpec = Omit<Static<typeof providerConfigSpecSchema>, 'overrideSchema'> & { overrideSchema?: OverrideSchema };
/** Engine names may go beyond EngineType (seed §3.14 lists "custom"). */
export type ProviderCapabilities = NonNullable<InferenceProviderConfigSpec['capabilities']>;
/** A CEL expression over `spec` (the ModelDeployment spec); the higher priority wins. */
export type SelectionRule = NonNullable<InferenceProviderConfigSpec['selectionRules']>[number];

/** Written by the provider (api/crd/provider-config-schema.ts). */
export type InferenceProviderConfigStatus = Static<typeof providerConfigStatusSchema>;

export interface InferenceProviderConfig {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: InferenceProviderConfigSpec;
  status?: InferenceProviderConfigStatus;
}

// ---------------------------------------------------------------- validation results

/** One finding of validation; `field` is a dotted path such as `spec.engine.type`. */
export interface Issue {
  field: string;
  message: string;
  /**
   * What the spec waits for when the issue is not the spec's fault but the cluster's (its provider is
   * not registered, or its CRD not installed): the controller waits for that instead of an edit.
   */
  awaits?: 'ProviderRegistration' | 'ProviderCrd' | 'ProviderWorker';
  /**
   * A field the schema does not declare. The API server drops it from a client that does not ask for
   * field validation (and admission never sees it: a warning there), but `kubectl apply` asks for
   * strict validation and is refused ("strict decoding error"): `kar validate` counts it as an error.
   */
  unknownField?: true;
}

export interface ValidationResult {
  errors: Issue[];
  warnings: Issue[];
}

// The kubeairunway API as TypeScript types: ModelDeployment (namespaced) and InferenceProviderConfig
// (cluster-scoped), both in kubeairunway.ai/v1alpha1. The shapes follow seed 001 §3.9 and §4.1.
// Every spec field is optional here because the API server stores what users wrote; `applyDefaults`
// (api/defaults.ts) fills the gaps and `validate` (api/validate.ts) reports what is still missing.

import type { ObjectMetadata } from './common/checks.ts';
import type { OverrideSchema } from './overrides.ts';

export type ModelSource = 'huggingface' | 'custom';
export type EngineType = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp';
export type ServingMode = 'aggregated' | 'disaggregated';
export type ProviderName = string; // dynamo | kaito | kuberay | any third-party provider
export type Phase = 'Pending' | 'Deploying' | 'Running' | 'Failed' | 'Terminating';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

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

export interface ModelSpec {
  /** HuggingFace model id; required when source is huggingface. */
  id?: string;
  /** API-facing model name; defaults to the last path segment of id. Ignored for custom source. */
  servedName?: string;
  source?: ModelSource;
}

/** Free-form provider-specific settings; each provider publishes an OverrideSchema for them. */
export type ProviderOverrides = Record<string, unknown>;

export interface ProviderSpec {
  /** Explicit provider; auto-selected when empty. */
  name?: ProviderName;
  overrides?: ProviderOverrides;
}

export interface EngineSpec {
  type?: EngineType;
  contextLength?: number;
  trustRemoteCode?: boolean;
  /** Engine flags passed through as strings (seed: map[string]string). */
  args?: Record<string, string>;
}

export interface ServingSpec {
  mode?: ServingMode;
}

export interface GpuSpec {
  count?: number;
  /** Extended resource name, e.g. nvidia.com/gpu or amd.com/gpu. */
  type?: string;
}

/** One disaggregated component (prefill or decode workers). */
export interface ComponentScalingSpec {
  replicas?: number;
  gpu?: GpuSpec;
  memory?: string;
  cpu?: string;
}

export interface ScalingSpec {
  /** Aggregated-mode replicas; 0 means scale to zero. */
  replicas?: number;
  prefill?: ComponentScalingSpec;
  decode?: ComponentScalingSpec;
}

export interface ResourcesSpec {
  gpu?: GpuSpec;
  memory?: string;
  cpu?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  /** Kept opaque: the controller only passes it to the provider resource. */
  valueFrom?: Record<string, unknown>;
}

export interface PodTemplateSpec {
  metadata?: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
}

export interface SecretsSpec {
  /** Name of a Secret in the same namespace holding the HuggingFace token. */
  huggingFaceToken?: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

export interface ModelDeploymentSpec {
  model?: ModelSpec;
  provider?: ProviderSpec;
  engine?: EngineSpec;
  serving?: ServingSpec;
  scaling?: ScalingSpec;
  resources?: ResourcesSpec;
  image?: string;
  env?: EnvVar[];
  podTemplate?: PodTemplateSpec;
  secrets?: SecretsSpec;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
}

// ---------------------------------------------------------------- ModelDeployment status

export interface Condition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ProviderStatus {
  /** Owned by the core controller. */
  name?: ProviderName;
  /** Owned by the core controller. */
  selectedReason?: string;
  /** Owned by the provider. */
  resourceName?: string;
  /** Owned by the provider. */
  resourceKind?: string;
}

export interface ReplicaStatus {
  desired?: number;
  ready?: number;
  available?: number;
}

export interface EndpointStatus {
  service?: string;
  port?: number;
}

export interface ModelDeploymentStatus {
  phase?: Phase;
  message?: string;
  provider?: ProviderStatus;
  replicas?: ReplicaStatus;
  endpoint?: EndpointStatus;
  conditions?: Condition[];
  observedGeneration?: number;
}

export interface ModelDeployment {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ModelDeploymentSpec;
  status?: ModelDeploymentStatus;
}

// ---------------------------------------------------------------- InferenceProviderConfig

export interface ProviderCapabilities {
  /** Engine names; a third-party provider may list engines beyond EngineType (seed §3.14 lists "custom"). */
  engines?: string[];
  servingModes?: ServingMode[];
  cpuSupport?: boolean;
  gpuSupport?: boolean;
}

export interface SelectionRule {
  /** CEL expression over `spec` (the ModelDeployment spec). */
  condition: string;
  /** Higher wins. */
  priority: number;
}

export interface InferenceProviderConfigSpec {
  capabilities?: ProviderCapabilities;
  selectionRules?: SelectionRule[];
  documentation?: string;
  /** How to install the upstream operator (seed §3.8); free-form, shown to users, never interpreted. */
  installation?: Record<string, unknown>;
  /**
   * What `spec.provider.overrides` may hold for this provider (seed 001 §4.15), published so admission can
   * check overrides without provider code. Read it with `overrideSchemaOf` (api/override-schema-shape.ts).
   */
  overrideSchema?: OverrideSchema;
}

export interface InferenceProviderConfigStatus {
  ready?: boolean;
  version?: string;
  lastHeartbeat?: string;
  upstreamCRDVersion?: string;
  upstreamSchemaHash?: string;
  conditions?: Condition[];
}

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
}

export interface ValidationResult {
  errors: Issue[];
  warnings: Issue[];
}

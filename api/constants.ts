// Names shared by every part of kubeairunway: API group, labels, annotations, condition types and
// reasons, event reasons (seed 001 §9) and server-side-apply field managers (seed 001 §3.10).

import { kindNames } from './common/kind-names.ts';

export const MODEL_DEPLOYMENT = kindNames({ group: 'kubeairunway.ai', version: 'v1alpha1', kind: 'ModelDeployment', plural: 'modeldeployments', singular: 'modeldeployment', shortNames: ['md'] });
export const { group: GROUP, version: VERSION, apiVersion: API_VERSION, kind: MODEL_DEPLOYMENT_KIND, plural: MODEL_DEPLOYMENT_PLURAL } = MODEL_DEPLOYMENT;

export const PROVIDER_CONFIG = kindNames({ group: GROUP, version: VERSION, kind: 'InferenceProviderConfig', plural: 'inferenceproviderconfigs', singular: 'inferenceproviderconfig' });
export const { kind: PROVIDER_CONFIG_KIND, plural: PROVIDER_CONFIG_PLURAL } = PROVIDER_CONFIG;

export const FINALIZER = 'kubeairunway.ai/finalizer';

/** Only labels with this prefix are copied from a ModelDeployment to its provider resource (§4.12). */
export const LABEL_PREFIX = 'kubeairunway.ai/';
export const MANAGED_BY_LABEL = 'kubeairunway.ai/managed-by';
export const MANAGED_BY_VALUE = 'kubeairunway';
/** The label every provider resource we render carries; the resource watch (and so its cache) selects by it. */
export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
export const MODEL_SOURCE_LABEL = 'kubeairunway.ai/model-source';

/** Reconciliation is skipped while this annotation is "true" (§4.6). */
export const PAUSE_ANNOTATION = 'kubeairunway.ai/reconcile-paused';

/** Field manager of the core controller for server-side apply. */
export const CONTROLLER_FIELD_MANAGER = 'kubeairunway-controller';
/** Field manager of a provider, e.g. `kaito-provider`. */
export function providerFieldManager(provider: string): string {
  return `${provider}-provider`;
}

export const ConditionType = {
  Validated: 'Validated',
  ProviderSelected: 'ProviderSelected',
  ProviderCompatible: 'ProviderCompatible',
  ResourceCreated: 'ResourceCreated',
  Ready: 'Ready',
} as const;
export type ConditionType = (typeof ConditionType)[keyof typeof ConditionType];

/** Condition reasons; the seed's examples (§4.1) give the success ones, the others are ours. */
export const ConditionReason = {
  ValidationPassed: 'ValidationPassed',
  ValidationFailed: 'ValidationFailed',
  AutoSelected: 'AutoSelected',
  ExplicitSelection: 'ExplicitSelection',
  NoProvider: 'NoProvider',
  NoHealthyProvider: 'NoHealthyProvider',
  SelectionFailed: 'SelectionFailed',
  CompatibilityVerified: 'CompatibilityVerified',
  IncompatibleConfiguration: 'IncompatibleConfiguration',
  ResourceCreated: 'ResourceCreated',
  ResourceCreateFailed: 'ResourceCreateFailed',
  DeploymentReady: 'DeploymentReady',
  DeploymentInProgress: 'DeploymentInProgress',
  DeploymentFailed: 'DeploymentFailed',
} as const;
export type ConditionReason = (typeof ConditionReason)[keyof typeof ConditionReason];

/** Kubernetes event reasons (seed 001 §9). */
export const EventReason = {
  ProviderSelected: 'ProviderSelected',
  ResourceCreated: 'ResourceCreated',
  SecretNotFound: 'SecretNotFound',
  ProviderError: 'ProviderError',
  DriftDetected: 'DriftDetected',
  FinalizerTimeout: 'FinalizerTimeout',
  /** Beyond the seed: the provider resource does not fit its CRD (also the ResourceCreated=False reason). */
  ResourceRefused: 'ResourceRefused',
  /** Beyond the seed: validation admitted the spec with warnings (api/messages.ts specWarnings). */
  SpecWarning: 'SpecWarning',
} as const;
export type EventReason = (typeof EventReason)[keyof typeof EventReason];

export const EventType = { Normal: 'Normal', Warning: 'Warning' } as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** Phases of status.phase (§4.1). */
export const PHASES = ['Pending', 'Deploying', 'Running', 'Failed', 'Terminating'] as const;
export const ENGINE_TYPES = ['vllm', 'sglang', 'trtllm', 'llamacpp'] as const;
export const MODEL_SOURCES = ['huggingface', 'custom'] as const;
export const SERVING_MODES = ['aggregated', 'disaggregated'] as const;

export const DEFAULT_GPU_TYPE = 'nvidia.com/gpu';

/** Where InferenceProviderConfigs live (cluster-scoped): for lists, watches and cached reads. */
export const PROVIDER_CONFIGS = { group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL } as const;

/** The namespace deploy/install.yaml (and the Helm chart) installs the controller and webhook into. */
export const SYSTEM_NAMESPACE = 'kubeairunway-system';
/** The Kybernate node worker's own namespace (deploy/components/kybernate-node: privileged, apart from the rest). */
export const NODE_NAMESPACE = 'kubeairunway-node';

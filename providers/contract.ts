// The provider contract. A provider is a set of pure functions over plain data: the core never knows
// a provider's resource kinds, and a provider worker (one Temporal task queue per provider) runs these
// functions inside its activities. Nothing here performs I/O; every input and output is JSON-serializable
// so it can cross an activity boundary unchanged.

import type { OverrideSchema } from '../api/overrides.ts';
import type { ConditionStatus, InferenceProviderConfig, ModelDeployment, Phase } from '../api/types.ts';
import type { ServingEndpoint } from './shared/gateway.ts';

export interface OwnerReferenceOut {
  apiVersion: string;
  kind: string;
  name: string;
  /** Absent only when rendering offline (no live object, so no uid). */
  uid?: string;
  controller: true;
  blockOwnerDeletion: true;
}

export interface ObjectMetaOut {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences: OwnerReferenceOut[];
}

/** A rendered object, ready for server-side apply. Keys are sorted (see shared/canonical.ts). */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetaOut;
  [field: string]: unknown;
}

/** The resource a provider renders: a custom resource, or (`builtin`) a kind Kubernetes itself serves. */
export interface ProviderResourceType {
  group: string;
  kind: string;
  plural: string;
  /** API versions of `group` this provider can render, preferred first (seed 001 §4.10). */
  versions: readonly string[];
  /**
   * A kind the API server serves itself (`apps/v1` Deployment): there is no CRD to find or wait for, the
   * first of `versions` is always the one rendered, and no CRD schema is checked before applying (the
   * API server validates built-in kinds on its own). Everything else (apply, drift, identity, watch,
   * cleanup) is the same as for a custom resource.
   */
  builtin?: true;
}

/** A kind of object a provider creates; cleanup deletes the ones it owns, primary resource first. */
export interface OwnedKind {
  /** `group/version`, or `v1` for the core group. */
  apiVersion: string;
  kind: string;
  plural: string;
}

/**
 * Objects related to the provider resource that its status mapping reads (e.g. the Pods of a
 * Deployment), by kind, as the provider activity listed them: those in the deployment's namespace that
 * carry its `kubeairunway.ai/model-deployment` label, at most a bounded number per kind.
 */
export type RelatedObjects = Readonly<Record<string, readonly unknown[]>>;

export interface CompatibilityResult {
  compatible: boolean;
  /** Messages of the seeds' provider-compatibility table, word for word where the seed gives one. */
  errors: string[];
  warnings: string[];
}

export interface RenderContext {
  /** apiVersion of the installed CRD, detected by the caller; one of `resource.versions` in `group/version` form. */
  apiVersion: string;
}

export interface RenderResult {
  /** The provider resource first, then any additional objects it needs (seed 001 §3.13). */
  objects: KubernetesObject[];
  /** Settings that were ignored or adjusted, in words for the user (e.g. TensorRT-LLM context length). */
  warnings: string[];
}

export interface UnifiedCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

export interface UnifiedReplicas {
  desired: number;
  ready: number;
  /** Only when the upstream status reports it. */
  available?: number;
}

export interface UnifiedEndpoint {
  service: string;
  port: number;
}

/** The provider-owned part of ModelDeployment.status (seed 000 "Status Ownership"). */
export interface UnifiedStatus {
  phase: Phase;
  /** Extracted from the upstream status (seed 001 §4.9); absent when there is nothing to say. */
  message?: string;
  replicas: UnifiedReplicas;
  endpoint?: UnifiedEndpoint;
  /** Conditions the provider owns and can derive from upstream status (the Ready condition). */
  conditions: UnifiedCondition[];
  /**
   * Why the model is not (fully) serving, as a Kubernetes event reason (`ImagePullBackOff`,
   * `CrashLoopBackOff`, `Unschedulable`, `OOMKilled` ...) for `message`: the provider activity records
   * one Warning event per distinct message, so `kubectl describe` shows the cause.
   */
  notReadyReason?: string;
}

export interface ProviderDefinition {
  /** Name of the provider and of its InferenceProviderConfig, e.g. `kaito`. */
  readonly name: string;
  /** Name used in user-facing messages, e.g. `KAITO` ("KAITO does not support sglang engine"). */
  readonly displayName: string;
  /** The InferenceProviderConfig the provider registers (status is written by its worker at start). */
  readonly config: InferenceProviderConfig;
  readonly resource: ProviderResourceType;
  /** What `spec.provider.overrides` may contain (seed 001 §4.15). */
  readonly overrideSchema: OverrideSchema;
  /** Kinds the provider creates and cleans up, primary resource first. */
  readonly ownedKinds: readonly OwnedKind[];
  /**
   * Kinds the status mapping reads besides the provider resource (read-only, found by the deployment's
   * label; see `RelatedObjects`). Most providers read only their resource and leave this out.
   */
  readonly statusReads?: readonly OwnedKind[];
  /** Whether this provider can serve the deployment; overrides of the wrong type are errors here. */
  compatibility(md: ModelDeployment): CompatibilityResult;
  /**
   * Renders the objects for a deployment that is valid and compatible. Pure and deterministic: the same
   * input gives byte-identical JSON. Throws `UnsupportedApiVersionError` when `context.apiVersion` is
   * not one of `resource.versions`; never throws otherwise.
   */
  render(md: ModelDeployment, context: RenderContext): RenderResult;
  /**
   * Where the model is served (the Service `mapStatus`'s endpoint names, and the pods behind it): what a
   * deployment's HTTPRoute and InferencePool point at (providers/shared/gateway.ts). Pure.
   */
  servingEndpoint(md: ModelDeployment): ServingEndpoint;
  /**
   * Maps the live provider resource (or undefined when it does not exist) to the unified status, with
   * the objects of `statusReads` when the provider declares any (empty lists otherwise). Never throws.
   */
  mapStatus(upstream: unknown, related?: RelatedObjects): UnifiedStatus;
}

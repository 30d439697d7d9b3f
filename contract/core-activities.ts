import type { ConditionStatus, Phase } from '../api/types.ts';
import type { ReadRef } from './object-ref.ts';

/** The little a workflow needs to decide its next step; the spec itself never enters workflow history. */
export interface DeploymentSnapshot {
  uid: string;
  /** What this read saw: the rest of the pass reads nothing older. */
  resourceVersion: string;
  generation: number;
  deletionTimestamp: string | undefined;
  hasFinalizer: boolean;
  paused: boolean;
  /** spec.provider.name */
  explicitProvider: string | undefined;
  /** status.provider.name */
  selectedProvider: string | undefined;
  /** status.provider.selectedReason */
  selectedReason: string | undefined;
  /** status.provider.resourceKind and resourceName, e.g. `Workspace default/my-llm`: named in cleanup events. */
  resource: string | undefined;
  /** The core-owned conditions as they are now, so a pass that changes nothing can write them back unchanged. */
  validated: ConditionInput | undefined;
  providerSelected: ConditionInput | undefined;
}

export interface ConditionInput {
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * Everything the core controller owns in status (seed 000 "Status Ownership"), written whole each time
 * with server-side apply: a field left out of an apply would be released (and removed) by SSA.
 */
export interface CoreStatus {
  /**
   * Written by the core only when it stops a pass before the provider (invalid spec, no provider, paused):
   * otherwise the provider writes it after observing the resource rendered from that generation.
   */
  observedGeneration?: number;
  provider?: { name: string; selectedReason: string };
  validated?: ConditionInput;
  providerSelected?: ConditionInput;
  paused?: ConditionInput;
  /** Set only while the core itself explains why nothing is deployed (invalid spec, no provider, provider unavailable). */
  phase?: { phase: Phase; message: string };
}

export interface ValidationOutcome {
  valid: boolean;
  /** The seed's messages, joined (each once). */
  message: string | undefined;
  warnings: string[];
  /** Set when the spec is fine but its provider is not there yet: what the deployment waits for instead of a valid spec. */
  waitingFor?: string;
}

export interface SelectionOutcome {
  provider: string | undefined;
  reason: string;
  /** Why nothing was selected, when nothing was. */
  message: string | undefined;
  rejected: { name: string; reason: string }[];
}

export interface EventInput {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * What `assessDeployment` found, step by step, as far as it went: the read always; the finalizer, the
 * validation and the provider selection only where the pass would run them next (not for an object
 * that is gone, deleting or paused; no selection for an invalid spec, a recorded provider or a pending
 * provider switch).
 */
export interface Assessment {
  snapshot: DeploymentSnapshot | null;
  finalizerAdded: boolean;
  validation?: ValidationOutcome;
  selection?: SelectionOutcome;
  /**
   * Providers the assessing worker also serves in its own process: their `reconcileResource` runs as a
   * local activity, not through their task queue. Absent in histories recorded before it (all remote).
   */
  inProcessProviders?: string[];
  /**
   * During a provider switch (spec.provider.name differs from status.provider.name): whether any worker
   * serves the provider being left, from its InferenceProviderConfig. `reported`: a worker has ever
   * written its status (heartbeat); `served`: one says ready and its heartbeat is fresh. Absent in
   * histories recorded before it, and when no switch is pending.
   */
  leaving?: { provider: string; reported: boolean; served: boolean };
}

export interface CoreActivities {
  /**
   * read, finalizer, validate and select in one local activity: the steps of a pass that need no other
   * component, one workflow activation instead of four. Workflows recorded before it ran them one by one.
   */
  assessDeployment(ref: ReadRef, input: { selectorEnabled: boolean }): Promise<Assessment>;
  readDeployment(ref: ReadRef): Promise<DeploymentSnapshot | null>;
  addFinalizer(ref: ReadRef): Promise<void>;
  removeFinalizer(ref: ReadRef): Promise<void>;
  validateDeployment(ref: ReadRef): Promise<ValidationOutcome>;
  selectProvider(ref: ReadRef, input: { selectorEnabled: boolean }): Promise<SelectionOutcome>;
  writeCoreStatus(ref: ReadRef, status: CoreStatus): Promise<void>;
  recordEvent(ref: ReadRef, event: EventInput): Promise<void>;
}

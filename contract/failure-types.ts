// Every failure type an activity throws, with its retry class, in one table. The adapters that
// classify errors (kube/errors.ts, containerd/errors.ts, broker/errors.ts) take an error's retry class
// from here, and the workflows' activity retry policy derives its non-retryable list from it, so the
// two can no longer disagree. The strings are stable: recorded histories, status messages
// (`KubeForbidden: …`) and users' Temporal UI queries carry them. Pure data, safe in workflow code.
import { ApplicationFailure } from '@temporalio/common';

/** `transient`: the same call may succeed later unchanged. `permanent`: someone must change something first. */
export type RetryClass = 'transient' | 'permanent';

export const FAILURE_TYPES = {
  // The Kubernetes API (kube/errors.ts, one per KubeErrorType).
  KubeNotFound: 'permanent',
  KubeNoKindMatch: 'permanent', // the CRD is not installed
  KubeConflict: 'transient', // a stale resourceVersion: read again and retry
  KubeAlreadyExists: 'permanent',
  KubeForbidden: 'permanent', // RBAC: an administrator must grant it
  KubeInvalid: 'permanent', // the API server refused the object itself
  KubeUnavailable: 'transient',
  KubeUnknown: 'transient',
  // containerd on a node (containerd/errors.ts, one per ContainerdErrorType).
  ContainerdNotFound: 'permanent',
  ContainerdAlreadyExists: 'permanent',
  ContainerdFailedPrecondition: 'permanent', // e.g. the task is not running
  ContainerdInvalid: 'permanent',
  ContainerdUnavailable: 'transient',
  ContainerdCheckpointFailed: 'permanent', // CRIU fails the same way again on the same machine
  ContainerdUnknown: 'transient',
  // RabbitMQ (broker/errors.ts).
  BrokerUnavailable: 'transient',
  BrokerRefused: 'permanent',
  // Raised by the controller's own code.
  InvalidSpec: 'permanent', // the object fails validation: its author must edit it
  ProviderBug: 'permanent', // a provider rendered something it does not own (or nothing)
  UnsupportedCrdVersion: 'permanent', // the installed provider CRD serves no version we render
  GpuPluginMissing: 'permanent', // CRIU's CUDA plugin is not on the node
  ActivityNotServed: 'permanent', // a local activity landed on a worker that does not run its provider
} as const satisfies Record<string, RetryClass>;

export type FailureType = keyof typeof FAILURE_TYPES;

/**
 * The step failure a workflow records when no worker picked an activity up in time (its schedule-to-start
 * timeout): it is never thrown by an activity, so it is not in the table. Other step failures carry the
 * activity's type (a third-party provider's worker may throw its own), `Timeout:<kind>` or `Error`.
 */
export const PROVIDER_UNAVAILABLE = 'ProviderUnavailable';

export function retryClassOf(type: FailureType): RetryClass {
  return FAILURE_TYPES[type];
}

export function isRetryableFailure(type: FailureType): boolean {
  return FAILURE_TYPES[type] === 'transient';
}

/** The activity retry policy's `nonRetryableErrorTypes`: every permanent type, in the table's order. */
export const NON_RETRYABLE_FAILURE_TYPES: readonly FailureType[] = (Object.keys(FAILURE_TYPES) as FailureType[]).filter((t) => FAILURE_TYPES[t] === 'permanent');

/**
 * The failure an activity throws for `type`: non-retryable exactly when the type is permanent, so no
 * thrower states a retry class of its own.
 */
export function activityFailure(type: FailureType, message: string, details?: unknown[]): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: !isRetryableFailure(type), ...(details ? { details } : {}) });
}

/** An error's message, or the thrown value as text when it is not an Error. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

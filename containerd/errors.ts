import type { ApplicationFailure } from '@temporalio/common';
import { activityFailure, type FailureType, isRetryableFailure, messageOf } from '../contract/failure-types.ts';

/**
 * Every containerd failure is classified here, once, from the gRPC status code (containerd maps its own
 * errdefs onto those) and, for a checkpoint, from where it failed. Callers see only the type and its
 * retry class:
 * - NotFound: no such container, task, image or blob.
 * - AlreadyExists: the id or name is taken.
 * - FailedPrecondition: the object is in the wrong state (a stopped task cannot be paused or dumped).
 * - Invalid: the request itself is wrong or not supported by this containerd or runtime.
 * - Unavailable: containerd could not be reached or did not answer in time.
 * - CheckpointFailed: the runtime (runc, with CRIU under it) failed to dump or restore the process. CRIU
 *   fails the same way again on the same machine, so it is not retried; `criuLog` carries its errors.
 * - Unknown: anything else (retried, like an unexplained failure anywhere here).
 */
export type ContainerdErrorType = 'NotFound' | 'AlreadyExists' | 'FailedPrecondition' | 'Invalid' | 'Unavailable' | 'CheckpointFailed' | 'Unknown';

export class ContainerdError extends Error {
  constructor(
    readonly type: ContainerdErrorType,
    /** The gRPC status code when containerd answered with one. */
    readonly code: number | undefined,
    /** containerd's (or the runtime's) own explanation, for people. */
    readonly detail: string,
    /** For CheckpointFailed: CRIU's error lines from its log, when the log could be read; else the runtime's message. */
    readonly criuLog?: string,
  ) {
    super(`${type}${code !== undefined ? ` (gRPC ${code})` : ''}: ${detail}`);
    this.name = 'ContainerdError';
  }

  /** The activity failure type it leaves as (`Containerd<Type>`), whose retry class contract/failure-types.ts states. */
  get failureType(): FailureType & `Containerd${ContainerdErrorType}` {
    return `Containerd${this.type}`;
  }

  /** Whether trying the same request again can succeed without anyone changing anything. */
  get retryable(): boolean {
    return isRetryableFailure(this.failureType);
  }
}

/** gRPC status codes (grpc-js's `status` enum, repeated so that this file imports no gRPC). */
const Code = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

/** What the failed call was doing: a runtime failure during these is the runtime's (CRIU's) own. */
export type ContainerdOperation = 'checkpoint' | 'restore' | 'other';

const SOCKET_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EACCES']);

/**
 * A checkpoint's or restore's runtime failure arrives as UNKNOWN (gRPC 2) with runc's message, e.g.
 * `criu failed: type NOTIFY errno 0 path= /run/.../criu-work: runc did not terminate successfully`.
 * Only that shape during those two operations is CheckpointFailed; the same code elsewhere is Unknown.
 */
function isRuntimeFailure(code: number, detail: string): boolean {
  return (code === Code.UNKNOWN || code === Code.INTERNAL) && /criu|runc|checkpoint|restore|dump/i.test(detail);
}

export function classifyContainerdError(err: unknown, operation: ContainerdOperation = 'other'): ContainerdError {
  if (err instanceof ContainerdError) return err;
  const e = err as { code?: unknown; details?: unknown; message?: unknown } | undefined;
  const message = messageOf(err);
  if (typeof e?.code !== 'number') {
    // Not a gRPC status: a socket that is missing or refuses (containerd not running), or anything else.
    const sys = typeof e?.code === 'string' && SOCKET_CODES.has(e.code);
    return new ContainerdError(sys ? 'Unavailable' : 'Unknown', undefined, message);
  }
  const code = e.code;
  // grpc-js puts the server's own message in `details`; `message` prefixes it with the code's name.
  const detail = typeof e.details === 'string' && e.details ? e.details : message;
  if (operation !== 'other' && isRuntimeFailure(code, detail)) return new ContainerdError('CheckpointFailed', code, detail, detail);
  switch (code) {
    case Code.NOT_FOUND:
      return new ContainerdError('NotFound', code, detail);
    case Code.ALREADY_EXISTS:
      return new ContainerdError('AlreadyExists', code, detail);
    case Code.FAILED_PRECONDITION:
      return new ContainerdError('FailedPrecondition', code, detail);
    case Code.INVALID_ARGUMENT:
    case Code.OUT_OF_RANGE:
    case Code.UNIMPLEMENTED:
      return new ContainerdError('Invalid', code, detail);
    case Code.CANCELLED:
    case Code.DEADLINE_EXCEEDED:
    case Code.RESOURCE_EXHAUSTED:
    case Code.ABORTED:
    case Code.UNAVAILABLE:
      return new ContainerdError('Unavailable', code, detail);
    default:
      return new ContainerdError('Unknown', code, detail);
  }
}

export function isContainerdError(err: unknown, ...types: ContainerdErrorType[]): boolean {
  return err instanceof ContainerdError && types.includes(err.type);
}

/** The failure an activity throws: type `Containerd<Type>`, non-retryable when repeating cannot help. */
export function toContainerdActivityFailure(err: unknown, action: string): ApplicationFailure {
  const c = classifyContainerdError(err);
  return activityFailure(c.failureType, `${action}: ${c.detail}`, [{ type: c.type, code: c.code ?? null, detail: c.detail, criuLog: c.criuLog ?? null }]);
}

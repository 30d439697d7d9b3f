import type { ApplicationFailure } from '@temporalio/common';
import { activityFailure, type FailureType, isRetryableFailure, messageOf } from '../contract/failure-types.ts';

/**
 * Every Kubernetes API failure is classified here, once, from the HTTP status and the structured
 * Status body; no other code looks at error messages. Workflows see only the resulting
 * ApplicationFailure type and its retry class.
 */
export type KubeErrorType = 'NotFound' | 'NoKindMatch' | 'Conflict' | 'AlreadyExists' | 'Forbidden' | 'Invalid' | 'Unavailable' | 'Unknown';

export class KubeError extends Error {
  constructor(
    readonly type: KubeErrorType,
    readonly status: number | undefined,
    /** The API server's own explanation (Status.message), for people. */
    readonly detail: string,
  ) {
    super(`${type}${status ? ` (HTTP ${status})` : ''}: ${detail}`);
    this.name = 'KubeError';
  }

  /** The activity failure type it leaves as (`Kube<Type>`), whose retry class contract/failure-types.ts states. */
  get failureType(): FailureType & `Kube${KubeErrorType}` {
    return `Kube${this.type}`;
  }

  /** Whether trying the same request again can succeed without anyone changing anything. */
  get retryable(): boolean {
    return isRetryableFailure(this.failureType);
  }

  /**
   * Whether the API server refused the request because of the object it carries (422 Invalid: schema,
   * CEL rules; 400 BadRequest: strict decoding, malformed patch; 415): sending it again unchanged gets
   * the same answer, so it is the object's author who must act, not a retry. A server-side apply whose
   * object does not fit the schema answers 500 with no structured reason and cannot be told from an
   * outage here: check the object against the CRD's schema before applying (kube/schema-check.ts).
   */
  get refused(): boolean {
    return this.type === 'Invalid';
  }
}

/** The API server's refusal of an object (see `KubeError.refused`), or undefined for any other failure. */
export function refusalOf(err: unknown): KubeError | undefined {
  const k = classifyKubeError(err);
  return k.refused ? k : undefined;
}

interface StatusBody {
  kind?: string;
  reason?: string;
  message?: string;
}

function statusBody(body: unknown): StatusBody | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && (value as StatusBody).kind === 'Status' ? (value as StatusBody) : undefined;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'UND_ERR_SOCKET', 'ABORT_ERR']);

function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    if ((e as { type?: unknown }).type === 'system' || (e as { name?: unknown }).name === 'FetchError') return 'network';
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function classifyKubeError(err: unknown): KubeError {
  if (err instanceof KubeError) return err;
  const status = typeof (err as { code?: unknown })?.code === 'number' ? ((err as { code: number }).code) : undefined;
  if (status === undefined) {
    const code = networkCode(err);
    return new KubeError(code ? 'Unavailable' : 'Unknown', undefined, messageOf(err));
  }
  const body = statusBody((err as { body?: unknown }).body);
  const detail = body?.message ?? `HTTP ${status}`;
  switch (status) {
    case 404:
      // A missing object answers with a Status whose reason is NotFound; a missing resource type
      // (CRD not installed) answers with a plain "404 page not found".
      return new KubeError(body?.reason === 'NotFound' ? 'NotFound' : 'NoKindMatch', status, detail);
    case 409:
      return new KubeError(body?.reason === 'AlreadyExists' ? 'AlreadyExists' : 'Conflict', status, detail);
    case 401:
    case 403:
      return new KubeError('Forbidden', status, detail);
    case 400:
    case 415:
    case 422:
      return new KubeError('Invalid', status, detail);
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
      return new KubeError('Unavailable', status, detail);
    default:
      return new KubeError('Unknown', status, detail);
  }
}

export function isKubeError(err: unknown, ...types: KubeErrorType[]): boolean {
  return types.includes(classifyKubeError(err).type);
}

/** The failure an activity throws: type `Kube<Type>`, non-retryable when repeating cannot help. */
export function toActivityFailure(err: unknown, action: string): ApplicationFailure {
  const k = classifyKubeError(err);
  return activityFailure(k.failureType, `${action}: ${k.detail}`, [{ type: k.type, status: k.status ?? null, detail: k.detail }]);
}

/** Runs one Kubernetes call; any failure leaves as a classified activity failure. */
export async function kubeCall<T>(action: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toActivityFailure(err, action);
  }
}

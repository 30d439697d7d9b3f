// The admission.k8s.io/v1 AdmissionReview wire format, reduced to the fields this webhook reads or
// writes, and the few response shapes it sends back.

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface AdmissionRequest {
  uid: string;
  kind?: GroupVersionKind;
  subResource?: string;
  operation?: Operation;
  namespace?: string;
  name?: string;
  object?: unknown;
  oldObject?: unknown;
  dryRun?: boolean;
}

/** metav1.Status as the API server reads it from a denial. */
export interface AdmissionStatus {
  status?: 'Success' | 'Failure';
  code?: number;
  reason?: string;
  message?: string;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  patchType?: 'JSONPatch';
  /** Base64 of a JSON array of RFC 6902 operations. */
  patch?: string;
  /** Shown by kubectl as "Warning: <text>". */
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

export class MalformedReviewError extends Error {
  override name = 'MalformedReviewError';
}

/** The request of a review the API server sent; anything else is the caller's mistake (HTTP 400). */
export function parseReview(body: unknown): AdmissionRequest {
  if (typeof body !== 'object' || body === null) throw new MalformedReviewError('body is not a JSON object');
  const review = body as Partial<AdmissionReview>;
  if (review.kind !== 'AdmissionReview') throw new MalformedReviewError(`kind is ${JSON.stringify(review.kind)}, want "AdmissionReview"`);
  if (review.apiVersion !== ADMISSION_API_VERSION) {
    throw new MalformedReviewError(`apiVersion is ${JSON.stringify(review.apiVersion)}, want "${ADMISSION_API_VERSION}"`);
  }
  const request = review.request;
  if (typeof request !== 'object' || request === null || typeof request.uid !== 'string' || request.uid === '') {
    throw new MalformedReviewError('request.uid is missing');
  }
  return request;
}

export function reviewOf(response: AdmissionResponse): AdmissionReview {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response };
}

export function allow(uid: string, warnings: readonly string[] = []): AdmissionResponse {
  return { uid, allowed: true, ...(warnings.length > 0 ? { warnings: [...warnings] } : {}) };
}

/**
 * A denial. 403 rather than 422: the API server prefixes the message with `admission webhook "<name>"
 * denied the request:` and kubectl prints that line as is; an Invalid status with field causes would
 * make kubectl rebuild its own "is invalid" text from the causes instead.
 */
export function deny(uid: string, message: string, warnings: readonly string[] = []): AdmissionResponse {
  return {
    uid,
    allowed: false,
    status: { status: 'Failure', code: 403, reason: 'Forbidden', message },
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
  };
}

export function allowWithPatch(uid: string, ops: readonly object[], warnings: readonly string[] = []): AdmissionResponse {
  if (ops.length === 0) return allow(uid, warnings);
  return { ...allow(uid, warnings), patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}

import { createHash } from 'node:crypto';
import { stableStringify } from '../../providers/shared/canonical.ts';

/**
 * Drift detection by fingerprint. After each apply we record a hash of the object as the API server
 * stored it (after its own defaulting and pruning); a later mismatch means someone else changed it. We
 * compare with what the server stored, not with what we rendered, so a server that normalizes a field
 * can never make us re-apply forever.
 */
export const RENDER_HASH_ANNOTATION = 'kubeairunway.ai/rendered-hash';
export const APPLIED_STATE_ANNOTATION = 'kubeairunway.ai/applied-state';

interface ObjectLike {
  metadata?: { labels?: Record<string, string>; [field: string]: unknown };
  [field: string]: unknown;
}

const digest = (value: unknown) => createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 16);

/** Hash of what we rendered: a new value means the ModelDeployment's spec changed. */
export function renderHash(rendered: unknown): string {
  return digest(rendered);
}

/** Hash of everything users and controllers can edit, except status and annotations (ours live there). */
export function stateHash(obj: ObjectLike): string {
  const { metadata, status: _status, ...content } = obj;
  return digest({ ...content, labels: metadata?.labels ?? {} });
}

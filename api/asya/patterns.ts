// Patterns and bounds shared by the AsyncActor CRD schema and validateAsyncActor, so admission and the
// workflow refuse the same values. The Kubernetes ones every kind uses come from api/common/patterns.ts.

export { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, MAX_SHORT_STRING, MAX_URL_LENGTH, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN, URL_PATH_PATTERN } from '../common/patterns.ts';

/**
 * An actor name is a DNS-1123 label: it is the value of the managed-by label (at most 63 characters),
 * names the standalone workload and the ScaledObject, and is part of the queue names.
 */
export const ACTOR_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const MAX_ACTOR_NAME_LENGTH = 63;

/** runtime.targetURL: an http(s) URL. */
export const TARGET_URL_PATTERN = '^https?://\\S+$';

// Patterns and bounds shared by the AsyncActor CRD schema and validateAsyncActor, so admission and the
// workflow refuse the same values. Pure (no imports).

/**
 * An actor name is a DNS-1123 label: it is the value of the managed-by label (at most 63 characters),
 * names the standalone workload and the ScaledObject, and is part of the queue names.
 */
export const ACTOR_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const MAX_ACTOR_NAME_LENGTH = 63;

/** Namespaces and Service names are DNS labels too. */
export const DNS_LABEL_PATTERN = ACTOR_NAME_PATTERN;
export const MAX_DNS_LABEL_LENGTH = 63;

/** Names of Deployments, StatefulSets, Workspaces and ModelDeployments: DNS-1123 subdomains. */
export const OBJECT_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
export const MAX_OBJECT_NAME_LENGTH = 253;

/** Image references, the handler and the Python executable: no whitespace anywhere. */
export const NO_WHITESPACE_PATTERN = '^\\S+$';

/** runtime.targetURL: an http(s) URL. */
export const TARGET_URL_PATTERN = '^https?://\\S+$';
export const MAX_URL_LENGTH = 2048;

/** runtime.targetService.path is appended to the URL as is, so it starts with '/'. */
export const URL_PATH_PATTERN = '^/\\S*$';


/** Bound on the short strings CEL rules compare (keeps the API server's cost estimate low). */
export const MAX_SHORT_STRING = 64;

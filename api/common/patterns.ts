// The Kubernetes name and string patterns more than one kind's CRD schema and validator use, stated
// once so every kind refuses the same values in the same words. Pure (no imports). JavaScript and the
// API server (Go's RE2) read every pattern here alike: no lookaround, no backreferences.

/** Object names (pods, Deployments, Workspaces, checkpoints): DNS-1123 subdomains. */
export const OBJECT_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
export const MAX_OBJECT_NAME_LENGTH = 253;
/** How ModelDeployment's messages word OBJECT_NAME_PATTERN (a Secret, a claim). */
export const OBJECT_NAME_DESCRIPTION =
  "an object name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, such as \"hf-token\")";

/** Namespaces, Service and container names: DNS-1123 labels. */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const MAX_DNS_LABEL_LENGTH = 63;

/** Image references and commands: no whitespace anywhere (the kubelet rejects leading or trailing spaces). */
export const NO_WHITESPACE_PATTERN = '^\\S+$';

/** An HTTP path (a health check, a path appended to a URL): starts with '/', no whitespace. */
export const URL_PATH_PATTERN = '^/\\S*$';
export const MAX_URL_LENGTH = 2048;

/** Bound on the short strings CEL rules compare (keeps the API server's cost estimate low). */
export const MAX_SHORT_STRING = 64;

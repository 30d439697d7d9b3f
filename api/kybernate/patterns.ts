// Patterns and bounds shared by the Kybernate CRD schemas and their validators, so admission and the
// workflows refuse the same values. Pure (no imports). JavaScript and the API server (Go's RE2) read
// every pattern here alike: no lookaround, no backreferences.

/** Pod and object names (podName, checkpointRef, targetPod.name): DNS-1123 subdomains. */
export const OBJECT_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
export const MAX_OBJECT_NAME_LENGTH = 253;

/** Container names are DNS-1123 labels. */
export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const MAX_DNS_LABEL_LENGTH = 63;

/**
 * Restores and workloads name their pod's label (kybernate.io/restore, kybernate.io/workload), and a
 * label value has at most 63 characters.
 */
export const MAX_OWNER_NAME_LENGTH = 63;

/** Image references (checkpointImage, storage.image): no whitespace anywhere. */
export const NO_WHITESPACE_PATTERN = '^\\S+$';

/** gpu.pluginPath, the CRIU plugin directory on the node (CRIU_LIBS): an absolute path. */
export const ABSOLUTE_PATH_PATTERN = '^/';

/** activator.healthPath: an HTTP path. */
export const URL_PATH_PATTERN = '^/\\S*$';
export const MAX_URL_PATH_LENGTH = 2048;

/**
 * A positive duration in whole units, as Go writes them without fractions: "5m", "30s", "1h30m",
 * "500ms". At least one part is non-zero ("0s" would suspend at once, or hold no request at all).
 */
export const DURATION_PATTERN = '^([0-9]+(ms|s|m|h))*0*[1-9][0-9]*(ms|s|m|h)([0-9]+(ms|s|m|h))*$';
export const MAX_DURATION_LENGTH = 32;

/** A label value: at most 63 characters, alphanumeric at both ends, '-', '_' and '.' inside; may be empty. */
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
export const MAX_LABEL_VALUE_LENGTH = 63;


/** Bound on the short strings CEL rules compare (keeps the API server's cost estimate low). */
export const MAX_SHORT_STRING = 64;

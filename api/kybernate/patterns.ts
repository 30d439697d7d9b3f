// Patterns and bounds shared by the Kybernate CRD schemas and their validators, so admission and the
// workflows refuse the same values. The Kubernetes ones every kind uses come from api/common/patterns.ts.
// JavaScript and the API server (Go's RE2) read every pattern here alike: no lookaround, no backreferences.

export { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, MAX_SHORT_STRING, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN, URL_PATH_PATTERN } from '../common/patterns.ts';
/** activator.healthPath: an HTTP path, as long as a URL may be. */
export { MAX_URL_LENGTH as MAX_URL_PATH_LENGTH } from '../common/patterns.ts';

/**
 * Restores and workloads name their pod's label (kybernate.io/restore, kybernate.io/workload), and a
 * label value has at most 63 characters.
 */
export const MAX_OWNER_NAME_LENGTH = 63;

/** gpu.pluginPath, the CRIU plugin directory on the node (CRIU_LIBS): an absolute path. */
export const ABSOLUTE_PATH_PATTERN = '^/';

/**
 * A positive duration in whole units, as Go writes them without fractions: "5m", "30s", "1h30m",
 * "500ms". At least one part is non-zero ("0s" would suspend at once, or hold no request at all).
 */
export const DURATION_PATTERN = '^([0-9]+(ms|s|m|h))*0*[1-9][0-9]*(ms|s|m|h)([0-9]+(ms|s|m|h))*$';
export const MAX_DURATION_LENGTH = 32;

/** A label value: at most 63 characters, alphanumeric at both ends, '-', '_' and '.' inside; may be empty. */
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
export const MAX_LABEL_VALUE_LENGTH = 63;

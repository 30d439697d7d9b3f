// The API server's own syntax rules for names, labels and other values it checks (k8s.io/apimachinery
// pkg/util/validation and pkg/apis/core/validation), restated for the fuzz tests, so a rendered object
// can be judged offline the way `kubectl apply` would judge it. Each returns the problems found, empty
// when the value is fine.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
/** The Quantity grammar of k8s.io/apimachinery/pkg/api/resource. */
const QUANTITY = /^([+-]?)(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

export function dns1123Label(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push(`'${value}' is longer than 63 characters`);
  if (!DNS1123_LABEL.test(value)) out.push(`'${value}' is not a DNS-1123 label`);
  return out;
}

export function dns1123Subdomain(value: string): string[] {
  const out: string[] = [];
  if (value.length > 253) out.push(`'${value}' is longer than 253 characters`);
  if (!DNS1123_SUBDOMAIN.test(value)) out.push(`'${value}' is not a DNS-1123 subdomain`);
  return out;
}

export function dns1035Label(value: string, maxLength = 63): string[] {
  const out: string[] = [];
  if (value.length > maxLength) out.push(`'${value}' is longer than ${maxLength} characters`);
  if (!DNS1035_LABEL.test(value)) out.push(`'${value}' is not a DNS-1035 label`);
  return out;
}

/** A label or annotation key: `[prefix/]name`, prefix a DNS-1123 subdomain, name at most 63 characters. */
export function qualifiedName(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) return [`'${value}' has more than one '/'`];
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0] ?? ''];
  const out: string[] = [];
  if (prefix !== undefined) {
    if (prefix === '') out.push(`'${value}' has an empty prefix`);
    else out.push(...dns1123Subdomain(prefix).map((p) => `prefix of '${value}': ${p}`));
  }
  if (name === undefined || name === '') out.push(`'${value}' has an empty name part`);
  else {
    if (name.length > 63) out.push(`name part of '${value}' is longer than 63 characters`);
    if (!QUALIFIED_NAME_PART.test(name)) out.push(`name part of '${value}' is not a qualified name`);
  }
  return out;
}

export function labelValue(value: string): string[] {
  const out: string[] = [];
  if (value.length > 63) out.push(`label value '${value}' is longer than 63 characters`);
  if (!LABEL_VALUE.test(value)) out.push(`label value '${value}' is not a valid label value`);
  return out;
}

export function labels(map: unknown, where: string): string[] {
  if (map === undefined) return [];
  if (!isStringMap(map)) return [`${where} is not a map of strings`];
  return Object.entries(map).flatMap(([k, v]) => [...qualifiedName(k), ...labelValue(v)].map((p) => `${where}: ${p}`));
}

export function annotations(map: unknown, where: string): string[] {
  if (map === undefined) return [];
  if (!isStringMap(map)) return [`${where} is not a map of strings`];
  const out = Object.keys(map).flatMap((k) => qualifiedName(k.toLowerCase()).map((p) => `${where}: ${p}`));
  const size = Object.entries(map).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (size > 256 * 1024) out.push(`${where}: total size ${size} is above 256 KiB`);
  return out;
}

/** A Quantity the API server parses, and (as every pod resource must be) not negative. */
export function nonNegativeQuantity(value: unknown, where: string): string[] {
  if (typeof value !== 'string') return [`${where}: quantity ${JSON.stringify(value)} is not a string`];
  const m = QUANTITY.exec(value);
  if (!m) return [`${where}: '${value}' is not a quantity`];
  if (m[1] === '-' && /[1-9]/.test(m[2] ?? '')) return [`${where}: '${value}' is negative`];
  return [];
}

/**
 * A container resource name: cpu, memory, ephemeral-storage, hugepages-<size>, or an extended resource
 * (a qualified name with a domain prefix outside kubernetes.io, e.g. nvidia.com/gpu).
 */
export function containerResourceName(value: string): string[] {
  if (['cpu', 'memory', 'ephemeral-storage'].includes(value) || value.startsWith('hugepages-')) return [];
  const problems = qualifiedName(value);
  if (problems.length > 0) return problems;
  if (!value.includes('/')) return [`resource name '${value}' is neither standard nor a domain-qualified extended resource`];
  const domain = value.split('/')[0] ?? '';
  if (domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io')) return [`resource name '${value}' is in the kubernetes.io namespace`];
  return [];
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

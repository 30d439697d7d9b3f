// Rules for the parts of a spec that end up in the pods a provider's operator creates: node selector,
// pod labels and annotations, tolerations, env names, the image, the GPU resource name and the
// quantities. The API server stores them inside our spec without looking (string maps, free strings),
// so without these rules `kubectl apply` says yes and the pods are refused much later, with the
// deployment stuck and only the operator's log saying why (found by the fuzz tests, api/fuzz/). The
// checks are Kubernetes' own (k8s.io/apimachinery validation, core/v1 pod validation). Never throws.

import { childPath, isPlainObject } from './overrides.ts';
import { field } from './spec-helpers.ts';
import type { ValidationResult } from './types.ts';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
/** Printable ASCII except '=' (Kubernetes 1.34+, RelaxedEnvironmentVariableValidation). */
const ENV_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;
const KEY_RULE = "an optional DNS subdomain prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
const VALUE_RULE = "at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, or empty";

/** Why `key` is not a label (or annotation) key, or undefined when it is one. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'it has more than one /';
  const name = parts.length === 2 ? parts[1] : parts[0];
  const prefix = parts.length === 2 ? parts[0] : undefined;
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) return 'its prefix is not a DNS subdomain';
  if (name === undefined || name.length === 0 || name.length > 63 || !NAME_PART.test(name)) return `it is not ${KEY_RULE}`;
  return undefined;
}

export function isLabelValue(value: string): boolean {
  return value.length <= 63 && LABEL_VALUE.test(value);
}

export function podRules(spec: Record<string, unknown>, out: ValidationResult): void {
  const err = (path: string, message: string): void => {
    out.errors.push({ field: path, message });
  };
  labelMap(field(spec, 'nodeSelector'), 'spec.nodeSelector', err);
  labelMap(field(spec, 'podTemplate', 'metadata', 'labels'), 'spec.podTemplate.metadata.labels', err);
  const annotations = field(spec, 'podTemplate', 'metadata', 'annotations');
  if (isPlainObject(annotations)) {
    for (const key of Object.keys(annotations).sort()) {
      const problem = labelKeyProblem(key.toLowerCase());
      const path = childPath('spec.podTemplate.metadata.annotations', key);
      if (problem) err(path, `${path} is not a valid annotation key (${problem}): ${JSON.stringify(key)}`);
    }
  }
  tolerations(field(spec, 'tolerations'), err);
  envNames(field(spec, 'env'), err);

  const image = field(spec, 'image');
  if (typeof image === 'string' && image !== image.trim()) err('spec.image', `spec.image has leading or trailing spaces: ${JSON.stringify(image)}`);

  for (const gpuPath of [['resources', 'gpu', 'type'], ['scaling', 'prefill', 'gpu', 'type'], ['scaling', 'decode', 'gpu', 'type']]) {
    const type = field(spec, ...gpuPath);
    const path = `spec.${gpuPath.join('.')}`;
    if (typeof type === 'string' && type !== '' && extendedResourceProblem(type)) {
      err(path, `${path} is not an extended resource name such as "nvidia.com/gpu" (${extendedResourceProblem(type)}): ${JSON.stringify(type)}`);
    }
  }

  for (const q of [['resources', 'memory'], ['resources', 'cpu'], ['scaling', 'prefill', 'memory'], ['scaling', 'prefill', 'cpu'], ['scaling', 'decode', 'memory'], ['scaling', 'decode', 'cpu']]) {
    const value = field(spec, ...q);
    const path = `spec.${q.join('.')}`;
    // The CRD's pattern accepts a sign; a pod's resources cannot be negative.
    if (typeof value === 'string' && /^-/.test(value) && /[1-9]/.test(value.replace(/[eE].*$/, ''))) err(path, `${path} cannot be negative, got ${JSON.stringify(value)}`);
  }
}

function labelMap(map: unknown, base: string, err: (path: string, message: string) => void): void {
  if (!isPlainObject(map)) return;
  for (const key of Object.keys(map).sort()) {
    const path = childPath(base, key);
    const problem = labelKeyProblem(key);
    if (problem) err(path, `${path} is not a valid label key (${problem}): ${JSON.stringify(key)}`);
    const value = map[key];
    if (typeof value === 'string' && !isLabelValue(value)) err(path, `${path} is not a valid label value (${VALUE_RULE}): ${JSON.stringify(value)}`);
  }
}

function tolerations(list: unknown, err: (path: string, message: string) => void): void {
  if (!Array.isArray(list)) return;
  list.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const path = `spec.tolerations[${i}]`;
    const key = typeof t.key === 'string' ? t.key : '';
    const operator = typeof t.operator === 'string' ? t.operator : '';
    const value = typeof t.value === 'string' ? t.value : '';
    const keyProblem = key !== '' ? labelKeyProblem(key) : undefined;
    if (keyProblem) err(`${path}.key`, `${path}.key is not a valid label key (${keyProblem}): ${JSON.stringify(key)}`);
    if (key === '' && operator !== 'Exists') err(`${path}.operator`, `${path}.operator has to be Exists when key is empty (a toleration of every taint)`);
    if (t.tolerationSeconds != null && t.effect !== 'NoExecute') err(`${path}.tolerationSeconds`, `${path}.tolerationSeconds is only allowed with effect NoExecute`);
    if (operator === 'Exists' && value !== '') err(`${path}.value`, `${path}.value has to be empty when operator is Exists`);
    if (operator !== 'Exists' && !isLabelValue(value)) err(`${path}.value`, `${path}.value is not a valid label value (${VALUE_RULE}): ${JSON.stringify(value)}`);
  });
}

function envNames(list: unknown, err: (path: string, message: string) => void): void {
  if (!Array.isArray(list)) return;
  list.forEach((e, i) => {
    if (!isPlainObject(e) || typeof e.name !== 'string' || e.name === '') return;
    const path = `spec.env[${i}].name`;
    if (!ENV_NAME.test(e.name)) err(path, `${path} can hold only printable ASCII characters other than '=', got ${JSON.stringify(e.name)}`);
    const from = e.valueFrom;
    for (const kind of ['secretKeyRef', 'configMapKeyRef']) {
      const ref = isPlainObject(from) ? from[kind] : undefined;
      if (!isPlainObject(ref)) continue;
      const refPath = `spec.env[${i}].valueFrom.${kind}`;
      if (typeof ref.name !== 'string' || ref.name === '') err(`${refPath}.name`, `${refPath}.name is required`);
      if (typeof ref.key !== 'string' || !/^[-._a-zA-Z0-9]{1,253}$/.test(ref.key)) {
        err(`${refPath}.key`, `${refPath}.key is required and can hold only letters, digits, '-', '_' and '.', got ${JSON.stringify(ref.key ?? null)}`);
      } else if (ref.key === '.' || ref.key.startsWith('..')) {
        // The pod's own rule for a Secret's or ConfigMap's key: the kubelet makes such keys into file names.
        err(`${refPath}.key`, `${refPath}.key must not be '.' or start with '..', got ${JSON.stringify(ref.key)}`);
      }
    }
  });
}

/** Why `name` cannot be a container's extended resource, or undefined. */
function extendedResourceProblem(name: string): string | undefined {
  const problem = labelKeyProblem(name);
  if (problem) return problem;
  if (!name.includes('/')) return 'it needs a domain prefix';
  const domain = name.split('/')[0] ?? '';
  if (domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io')) return 'the kubernetes.io domain is reserved';
  return undefined;
}

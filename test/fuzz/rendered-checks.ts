// Offline judgement of rendered objects: what the API server would check on them, and on the pods the
// providers' operators create from them (names, labels, annotations, node selectors, tolerations, env
// names, container resources). Also collects those pods, so the integration test can hand them to the
// real API server (dry-run) and compare its verdict with this one.

import { isDeepStrictEqual } from 'node:util';
import type { KubernetesObject, ProviderDefinition } from '../../providers/contract.ts';
import { MAX_GRAPH_NAME } from '../../providers/dynamo/defaults.ts';
import { MAX_WORKSPACE_NAME } from '../../providers/kaito/defaults.ts';
import { MAX_RAYSERVICE_NAME } from '../../providers/kuberay/defaults.ts';
import {
  annotations,
  containerResourceName,
  dns1035Label,
  dns1123Label,
  dns1123Subdomain,
  labels,
  labelValue,
  nonNegativeQuantity,
  qualifiedName,
} from './kube-names.ts';

type Obj = Record<string, unknown>;

/** Longest primary resource name each built-in provider's operator can take (docs/validation.md). */
export const MAX_RESOURCE_NAME: Readonly<Record<string, number>> = { kaito: MAX_WORKSPACE_NAME, dynamo: MAX_GRAPH_NAME, kuberay: MAX_RAYSERVICE_NAME };

/** A pod an operator would create from a rendered object: `template` is { metadata?, spec }. */
export interface DerivedPod {
  where: string;
  template: Obj;
}

/** Names of objects an operator derives (a Dynamo component's Deployment and Service). */
export interface DerivedName {
  where: string;
  name: string;
}

export function derivedPods(provider: string, object: KubernetesObject): DerivedPod[] {
  const o = object as Obj;
  if (provider === 'kaito' && object.kind === 'Workspace') {
    const inference = obj(o.inference);
    const template = obj(inference?.template);
    const pods: DerivedPod[] = [];
    if (template) pods.push({ where: 'inference.template', template });
    const matchLabels = obj(obj(obj(o.resource)?.labelSelector)?.matchLabels);
    // KAITO provisions nodes with these labels and pins the model pods to them.
    if (matchLabels) pods.push({ where: 'resource.labelSelector', template: { spec: { nodeSelector: matchLabels, containers: [{ name: 'model', image: 'x' }] } } });
    return pods;
  }
  if (provider === 'dynamo' && object.kind === 'DynamoGraphDeployment' && Array.isArray(obj(o.spec)?.components)) {
    // v1beta1: each component's podTemplate is a native PodTemplateSpec.
    return (obj(o.spec)!.components as unknown[]).flatMap((raw, i) => {
      const template = obj(obj(raw)?.podTemplate);
      return template ? [{ where: `spec.components[${i}].podTemplate`, template }] : [];
    });
  }
  if (provider === 'dynamo' && object.kind === 'DynamoGraphDeployment') {
    const services = obj(obj(o.spec)?.services) ?? {};
    return Object.entries(services).map(([key, raw]) => {
      const service = obj(raw) ?? {};
      const pod = obj(service.extraPodSpec) ?? {};
      const { mainContainer, ...podRest } = pod;
      const limits = obj(obj(service.resources)?.limits) ?? {};
      const requests = obj(obj(service.resources)?.requests) ?? {};
      const gpuOf = (m: Obj): Obj => Object.fromEntries(Object.entries(m).map(([k, v]) => [k === 'gpu' ? 'nvidia.com/gpu' : k, v]));
      const resources = { ...(Object.keys(limits).length > 0 ? { limits: gpuOf(limits) } : {}), ...(Object.keys(requests).length > 0 ? { requests: gpuOf(requests) } : {}) };
      const container = { name: 'main', ...(obj(mainContainer) ?? {}), ...(Object.keys(resources).length > 0 ? { resources } : {}) };
      const metadata = { ...(service.labels ? { labels: service.labels } : {}), ...(service.annotations ? { annotations: service.annotations } : {}) };
      return { where: `spec.services.${key}`, template: { metadata, spec: { ...podRest, containers: [container] } } };
    });
  }
  if (provider === 'kuberay' && object.kind === 'RayService') {
    const cluster = obj(obj(o.spec)?.rayClusterConfig) ?? {};
    const pods: DerivedPod[] = [];
    const head = obj(obj(cluster.headGroupSpec)?.template);
    if (head) pods.push({ where: 'headGroupSpec.template', template: head });
    const workers = Array.isArray(cluster.workerGroupSpecs) ? cluster.workerGroupSpecs : [];
    workers.forEach((w, i) => {
      const t = obj(obj(w)?.template);
      if (t) pods.push({ where: `workerGroupSpecs[${i}].template`, template: t });
    });
    return pods;
  }
  return [];
}

export function derivedNames(provider: string, object: KubernetesObject): DerivedName[] {
  if (provider !== 'dynamo' || object.kind !== 'DynamoGraphDeployment') return [];
  const services = obj(obj((object as Obj).spec)?.services) ?? {};
  return Object.keys(services).map((key) => ({ where: `Service of ${key}`, name: `${object.metadata.name}-${key.toLowerCase()}` }));
}

/** Every problem the API server (or the operator's pods) would have with the rendered objects. */
export function renderedProblems(provider: ProviderDefinition, objects: readonly KubernetesObject[], owner: { name: string; namespace: string }): string[] {
  const out: string[] = [];
  if (objects.length === 0) out.push('no objects rendered');
  objects.forEach((object, i) => {
    const at = (p: string): string => `objects[${i}] (${object.kind}) ${p}`;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(object)), object)) out.push(at('is not plain JSON (undefined, NaN, a prototype)'));
    const meta = object.metadata;
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') out.push(at('has no apiVersion/kind'));
    out.push(...dns1123Subdomain(meta.name).map(at));
    if (i === 0) {
      if (object.kind !== provider.resource.kind) out.push(at(`is not a ${provider.resource.kind}`));
      const max = MAX_RESOURCE_NAME[provider.name];
      if (max !== undefined) out.push(...dns1035Label(meta.name, max).map(at));
    }
    if (meta.namespace !== owner.namespace) out.push(at(`namespace '${meta.namespace}' is not the owner's`));
    out.push(...labels(meta.labels, 'metadata.labels').map(at), ...annotations(meta.annotations, 'metadata.annotations').map(at));
    const refs = meta.ownerReferences;
    if (!Array.isArray(refs) || refs.length !== 1 || refs[0]?.name !== owner.name) out.push(at('does not have the ModelDeployment as its one owner'));
    if (object.kind === 'PersistentVolumeClaim') out.push(...claimProblems(obj((object as Obj).spec) ?? {}).map(at));
    if (object.kind === 'ConfigMap') {
      for (const key of Object.keys(obj((object as Obj).data) ?? {})) {
        if (!/^[-._a-zA-Z0-9]+$/.test(key) || key.length > 253) out.push(at(`data key '${key}' is not a valid ConfigMap key`));
      }
    }
    for (const pod of derivedPods(provider.name, object)) out.push(...podTemplateProblems(pod.template).map((p) => at(`${pod.where}: ${p}`)));
    for (const d of derivedNames(provider.name, object)) out.push(...dns1035Label(d.name).map((p) => at(`${d.where}: ${p}`)));
  });
  return out;
}

export function podTemplateProblems(template: Obj): string[] {
  const out: string[] = [];
  const metadata = obj(template.metadata) ?? {};
  out.push(...labels(metadata.labels, 'labels'), ...annotations(metadata.annotations, 'annotations'));
  const spec = obj(template.spec) ?? {};
  out.push(...labels(spec.nodeSelector, 'nodeSelector'));
  const tolerations = spec.tolerations === undefined ? [] : spec.tolerations;
  if (!Array.isArray(tolerations)) out.push('tolerations is not a list');
  else tolerations.forEach((t, i) => out.push(...tolerationProblems(obj(t) ?? {}).map((p) => `tolerations[${i}]: ${p}`)));
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  if (containers.length === 0) out.push('no containers');
  containers.forEach((c, i) => out.push(...containerProblems(obj(c) ?? {}).map((p) => `containers[${i}]: ${p}`)));
  out.push(...volumeProblems(spec, containers));
  return out;
}

/** A pod's volumes (unique DNS-label names, valid claim names) and each container's mounts of them (declared, unique absolute paths). */
function volumeProblems(spec: Obj, containers: unknown[]): string[] {
  const out: string[] = [];
  const volumes = Array.isArray(spec.volumes) ? spec.volumes.map((v) => obj(v) ?? {}) : [];
  const names = volumes.map((v) => (typeof v.name === 'string' ? v.name : ''));
  names.forEach((name, i) => out.push(...dns1123Label(name).map((p) => `volumes[${i}].name: ${p}`)));
  if (new Set(names).size !== names.length) out.push('volumes: duplicate name');
  volumes.forEach((v, i) => {
    const claim = obj(v.persistentVolumeClaim);
    if (claim) out.push(...dns1123Subdomain(typeof claim.claimName === 'string' ? claim.claimName : '').map((p) => `volumes[${i}].persistentVolumeClaim.claimName: ${p}`));
  });
  containers.forEach((c, i) => {
    const mounts = Array.isArray(obj(c)?.volumeMounts) ? (obj(c)!.volumeMounts as unknown[]).map((m) => obj(m) ?? {}) : [];
    const paths = mounts.map((m) => m.mountPath);
    mounts.forEach((m, j) => {
      if (typeof m.name !== 'string' || !names.includes(m.name)) out.push(`containers[${i}].volumeMounts[${j}]: volume ${JSON.stringify(m.name)} not found`);
      if (typeof m.mountPath !== 'string' || !m.mountPath.startsWith('/')) out.push(`containers[${i}].volumeMounts[${j}].mountPath is not an absolute path`);
    });
    if (new Set(paths).size !== paths.length) out.push(`containers[${i}].volumeMounts: duplicate mountPath`);
  });
  return out;
}

/** A PersistentVolumeClaim's spec as the API server checks it: known access modes, a storage request above zero. */
function claimProblems(spec: Obj): string[] {
  const out: string[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0 || !modes.every((m) => ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'].includes(m as string))) out.push(`spec.accessModes ${JSON.stringify(spec.accessModes)} is not a list of access modes`);
  const storage = obj(obj(spec.resources)?.requests)?.storage;
  const problems = nonNegativeQuantity(storage, 'spec.resources.requests.storage');
  out.push(...problems);
  if (problems.length === 0 && !/[1-9]/.test(String(storage).replace(/[eE].*$/, ''))) out.push(`spec.resources.requests.storage '${String(storage)}' must be greater than zero`);
  if (spec.storageClassName !== undefined && spec.storageClassName !== '') out.push(...dns1123Subdomain(String(spec.storageClassName)).map((p) => `spec.storageClassName: ${p}`));
  return out;
}

function tolerationProblems(t: Obj): string[] {
  const out: string[] = [];
  const key = typeof t.key === 'string' ? t.key : '';
  const operator = typeof t.operator === 'string' ? t.operator : '';
  const value = typeof t.value === 'string' ? t.value : '';
  if (key !== '') out.push(...qualifiedName(key));
  if (key === '' && operator !== 'Exists') out.push("operator must be Exists when key is empty");
  if (t.tolerationSeconds != null && t.effect !== 'NoExecute') out.push("effect must be 'NoExecute' when tolerationSeconds is set");
  if (operator === 'Exists' && value !== '') out.push("value must be empty when operator is 'Exists'");
  if (operator === 'Equal' || operator === '') out.push(...labelValue(value));
  return out;
}

function containerProblems(c: Obj): string[] {
  const out: string[] = [];
  if (typeof c.name !== 'string') out.push('no name');
  else out.push(...dns1123Label(c.name));
  if (typeof c.image !== 'string' || c.image.trim() === '' || c.image !== c.image.trim()) out.push(`image ${JSON.stringify(c.image)} is empty or has surrounding spaces`);
  const env = Array.isArray(c.env) ? c.env : [];
  env.forEach((raw, i) => {
    const e = obj(raw) ?? {};
    const name = typeof e.name === 'string' ? e.name : '';
    // RelaxedEnvironmentVariableValidation (GA in Kubernetes 1.34): printable ASCII except '='.
    if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(name)) out.push(`env[${i}].name ${JSON.stringify(name)} is not printable ASCII without '='`);
    const from = obj(e.valueFrom);
    if (from) {
      if (e.value !== undefined && e.value !== '') out.push(`env[${i}] has both value and valueFrom`);
      const refs = ['secretKeyRef', 'configMapKeyRef', 'fieldRef', 'resourceFieldRef', 'fileKeyRef'].filter((k) => from[k] !== undefined);
      if (refs.length !== 1) out.push(`env[${i}].valueFrom must have exactly one source, has ${refs.length}`);
      for (const k of ['secretKeyRef', 'configMapKeyRef']) {
        const ref = obj(from[k]);
        if (ref && (typeof ref.key !== 'string' || !/^[-._a-zA-Z0-9]+$/.test(ref.key))) out.push(`env[${i}].valueFrom.${k}.key is not a valid key`);
      }
    }
  });
  const resources = obj(c.resources) ?? {};
  for (const kind of ['requests', 'limits'] as const) {
    for (const [name, q] of Object.entries(obj(resources[kind]) ?? {})) {
      out.push(...containerResourceName(name).map((p) => `resources.${kind}: ${p}`), ...nonNegativeQuantity(q, `resources.${kind}.${name}`));
    }
  }
  return out;
}

function obj(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

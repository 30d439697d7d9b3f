// Derived facts about a spec, with the seed's defaults applied, for code that must not care whether a
// spec was defaulted yet (validation, selection, rendering). Tolerant of wrong types: a field of the
// wrong type reads as absent.

import { DEFAULT_GPU_TYPE, PAUSE_ANNOTATION } from './constants.ts';
import { isPlainObject } from './overrides.ts';
import type { ModelDeploymentSpec, ModelSource, ObjectMeta, ServingMode } from './types.ts';

export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function stringField(value: unknown, ...path: string[]): string | undefined {
  const v = field(value, ...path);
  return typeof v === 'string' ? v : undefined;
}

function countField(value: unknown, ...path: string[]): number {
  const v = field(value, ...path);
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Last non-empty path segment of a model id: meta-llama/Llama-3.1-8B-Instruct → Llama-3.1-8B-Instruct. */
export function modelBasename(id: string): string {
  const segments = id.split('/').filter((s) => s !== '');
  return segments.at(-1) ?? id;
}

export function modelSource(spec: ModelDeploymentSpec | unknown): ModelSource {
  return stringField(spec, 'model', 'source') === 'custom' ? 'custom' : 'huggingface';
}

export function servingMode(spec: ModelDeploymentSpec | unknown): ServingMode {
  return stringField(spec, 'serving', 'mode') === 'disaggregated' ? 'disaggregated' : 'aggregated';
}

/** The model name clients use; undefined for custom source (the image decides). */
export function servedName(spec: ModelDeploymentSpec | unknown): string | undefined {
  if (modelSource(spec) === 'custom') return undefined;
  const explicit = stringField(spec, 'model', 'servedName');
  if (explicit) return explicit;
  const id = stringField(spec, 'model', 'id');
  return id ? modelBasename(id) : undefined;
}

/** GPUs per replica in aggregated mode; an omitted resources.gpu means CPU (0). */
export function gpuCount(spec: ModelDeploymentSpec | unknown): number {
  return countField(spec, 'resources', 'gpu', 'count');
}

/** GPUs per worker of a disaggregated component. */
export function componentGpuCount(spec: ModelDeploymentSpec | unknown, component: 'prefill' | 'decode'): number {
  return countField(spec, 'scaling', component, 'gpu', 'count');
}

/** Whether the deployment asks for any GPU, in either serving mode. */
export function requestsGpu(spec: ModelDeploymentSpec | unknown): boolean {
  if (servingMode(spec) === 'disaggregated') {
    return componentGpuCount(spec, 'prefill') > 0 || componentGpuCount(spec, 'decode') > 0;
  }
  return gpuCount(spec) > 0;
}

export function gpuType(spec: ModelDeploymentSpec | unknown, component?: 'prefill' | 'decode'): string {
  const type = component ? stringField(spec, 'scaling', component, 'gpu', 'type') : stringField(spec, 'resources', 'gpu', 'type');
  return type || DEFAULT_GPU_TYPE;
}

/** The explicit provider name, or undefined when the selector should choose (an empty name counts as none). */
export function explicitProvider(spec: ModelDeploymentSpec | unknown): string | undefined {
  return stringField(spec, 'provider', 'name') || undefined;
}

export function isReconcilePaused(metadata: ObjectMeta | undefined): boolean {
  return metadata?.annotations?.[PAUSE_ANNOTATION] === 'true';
}

// Rules beyond the seed's table: specs the API server would store and a simulated operator would report
// as Running, but that a real cluster breaks on later (a server with no model, a pod that never
// schedules, a `kubectl scale` that changes nothing). The errors are also CEL rules of the CRD
// (api/crd/cel-rules.ts), so the API server gives the same words with the webhook down.

import { engineFlagName } from './engine-args.ts';
import { MANY_REPLICAS, MAX_GPU_COUNT, MAX_GPUS_PER_SERVER, MAX_REPLICAS } from './limits.ts';
import { field, servingMode } from './spec-helpers.ts';
import type { ValidationResult } from './types.ts';
import { ValidationMessage } from './validation-messages.ts';

export function extendedRules(spec: Record<string, unknown>, previousSpec: unknown, out: ValidationResult): void {
  customSourceImage(spec, out);
  gpuCounts(spec, out);
  disaggregatedReplicas(spec, previousSpec, out);
  disaggregatedWorkers(spec, out);
  replicaCounts(spec, out);
  engineArgKeys(spec, out);
}

/**
 * Disaggregated serving needs both kinds of worker: prefill computes the KV cache, decode generates
 * from it. Zero of one while the other runs serves nothing; both at zero is a scale to zero. Also a CEL
 * rule of the CRD. Counts of the wrong type were reported by the structural check.
 */
function disaggregatedWorkers(spec: Record<string, unknown>, out: ValidationResult): void {
  if (servingMode(spec) !== 'disaggregated') return;
  const prefill = field(spec, 'scaling', 'prefill');
  const decode = field(spec, 'scaling', 'decode');
  if (prefill == null || decode == null) return;
  // As the CRD defaults an omitted count: 1.
  const p = field(prefill, 'replicas') ?? 1;
  const d = field(decode, 'replicas') ?? 1;
  if (typeof p !== 'number' || typeof d !== 'number') return;
  if (p === 0 && d !== 0) out.errors.push({ field: 'spec.scaling.prefill.replicas', message: ValidationMessage.disaggregatedNoPrefillWorkers });
  if (d === 0 && p !== 0) out.errors.push({ field: 'spec.scaling.decode.replicas', message: ValidationMessage.disaggregatedNoDecodeWorkers });
}

/** The hard bound is the CRD's (api/limits.ts, MAX_REPLICAS), reported by the structural check; this is the soft one. */
function replicaCounts(spec: Record<string, unknown>, out: ValidationResult): void {
  const paths = servingMode(spec) === 'disaggregated' ? [['scaling', 'prefill', 'replicas'], ['scaling', 'decode', 'replicas']] : [['scaling', 'replicas']];
  for (const path of paths) {
    const count = field(spec, ...path);
    if (typeof count === 'number' && count > MANY_REPLICAS && count <= MAX_REPLICAS) {
      const fieldPath = `spec.${path.join('.')}`;
      out.warnings.push({ field: fieldPath, message: ValidationMessage.replicasBeyondUsual(fieldPath, count, MANY_REPLICAS) });
    }
  }
}

/** A key that is not a flag name is dropped by every provider's rendering (providers/shared/engine-options.ts): say so before. */
function engineArgKeys(spec: Record<string, unknown>, out: ValidationResult): void {
  const args = field(spec, 'engine', 'args');
  if (!args || typeof args !== 'object' || Array.isArray(args)) return;
  for (const key of Object.keys(args)) {
    if (engineFlagName(key) === undefined) out.warnings.push({ field: `spec.engine.args[${JSON.stringify(key)}]`, message: ValidationMessage.engineArgKeyInvalid(key) });
  }
}

/**
 * A custom source means the model is pre-loaded in the image (seed 001 §4.1), and no provider's default
 * image holds a model: without spec.image the deployment would run a server with nothing to serve.
 */
function customSourceImage(spec: Record<string, unknown>, out: ValidationResult): void {
  const image = field(spec, 'image');
  if (field(spec, 'model', 'source') === 'custom' && (image == null || image === '')) {
    out.errors.push({ field: 'spec.image', message: ValidationMessage.customSourceRequiresImage });
  }
}

/** The hard bound is the CRD's (api/limits.ts), reported by the structural check; this is the soft one. */
function gpuCounts(spec: Record<string, unknown>, out: ValidationResult): void {
  const paths: string[][] =
    servingMode(spec) === 'disaggregated'
      ? [
          ['scaling', 'prefill', 'gpu', 'count'],
          ['scaling', 'decode', 'gpu', 'count'],
        ]
      : [['resources', 'gpu', 'count']];
  for (const path of paths) {
    const count = field(spec, ...path);
    if (typeof count === 'number' && count > MAX_GPUS_PER_SERVER && count <= MAX_GPU_COUNT) {
      const fieldPath = `spec.${path.join('.')}`;
      out.warnings.push({ field: fieldPath, message: ValidationMessage.gpuCountBeyondServer(fieldPath, count, MAX_GPUS_PER_SERVER) });
    }
  }
}

/**
 * spec.scaling.replicas is the aggregated-mode replica count and the CRD's scale subresource. In
 * disaggregated mode it does nothing: a change of it (what `kubectl scale` makes) is refused, and a value
 * other than the default is pointed out.
 */
function disaggregatedReplicas(spec: Record<string, unknown>, previousSpec: unknown, out: ValidationResult): void {
  const replicas = replicasOf(spec);
  // A replica count of the wrong type was reported by the structural check.
  if (field(spec, 'serving', 'mode') !== 'disaggregated' || typeof replicas !== 'number') return;
  if (previousSpec !== undefined && field(previousSpec, 'serving', 'mode') === 'disaggregated' && replicas !== replicasOf(previousSpec)) {
    out.errors.push({ field: 'spec.scaling.replicas', message: ValidationMessage.disaggregatedReplicasFixed });
  } else if (replicas !== 1) {
    out.warnings.push({ field: 'spec.scaling.replicas', message: ValidationMessage.replicasIgnoredInDisaggregated });
  }
}

/** As the CEL rule reads it: an omitted value is the CRD default, 1. */
function replicasOf(spec: unknown): unknown {
  return field(spec, 'scaling', 'replicas') ?? 1;
}

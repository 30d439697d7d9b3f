// Rules beyond the seed's table: specs the API server would store and a simulated operator would report
// as Running, but that a real cluster breaks on later (a server with no model, a pod that never
// schedules, a `kubectl scale` that changes nothing). The errors are also CEL rules of the CRD
// (api/crd/cel-rules.ts), so the API server gives the same words with the webhook down.

import { MAX_GPU_COUNT, MAX_GPUS_PER_SERVER } from './limits.ts';
import { field, servingMode } from './spec-helpers.ts';
import type { ValidationResult } from './types.ts';
import { ValidationMessage } from './validation-messages.ts';

export function extendedRules(spec: Record<string, unknown>, previousSpec: unknown, out: ValidationResult): void {
  customSourceImage(spec, out);
  gpuCounts(spec, out);
  disaggregatedReplicas(spec, previousSpec, out);
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

// Rules beyond the seed's table that need hand code: warnings about specs a real cluster would run badly
// (a pod that hardly schedules, a flag no provider passes) and the one rule about a change (a `kubectl
// scale` that changes nothing), which compares with the stored spec. It is also a CEL transition rule of
// the CRD, so the API server gives the same words with the webhook down; our other errors beyond the seed
// (a server with no model, a disaggregated deployment missing a kind of worker) are CEL rules only
// (api/crd/cel-rules.ts), evaluated with the schema.

import { engineFlagName } from './engine-args.ts';
import { MANY_REPLICAS, MAX_GPU_COUNT, MAX_GPUS_PER_SERVER, MAX_REPLICAS } from './limits.ts';
import { field, servingMode } from './spec-helpers.ts';
import type { ValidationResult } from './types.ts';
import { ValidationMessage } from './validation-messages.ts';

export function extendedRules(spec: Record<string, unknown>, previousSpec: unknown, out: ValidationResult): void {
  gpuCounts(spec, out);
  disaggregatedReplicas(spec, previousSpec, out);
  replicaCounts(spec, out);
  engineArgKeys(spec, out);
}

/** The hard bound is the CRD's (api/limits.ts, MAX_REPLICAS), reported by the schema; this is the soft one. */
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

/** The hard bound is the CRD's (api/limits.ts), reported by the schema; this is the soft one. */
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
  // A replica count of the wrong type was reported by the schema.
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

// Exact texts of the seed's validation tables (seed 001 §8, seed 000 "Validation Webhook"). The
// admission webhook, reconcile-time validation and the CRD's CEL rules all take their words from here.

import type { EngineType } from './types.ts';

/** Engines that cannot run without a GPU, with the name the seed's messages use. */
export const GPU_ENGINES: Readonly<Partial<Record<EngineType, string>>> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
};

export const ValidationMessage = {
  engineRequiresGpu: (engineDisplayName: string): string =>
    `${engineDisplayName} engine requires GPU (set resources.gpu.count > 0)`,
  disaggregatedWithResourcesGpu: 'Cannot specify both resources.gpu and scaling.prefill/decode',
  disaggregatedRequiresPrefillAndDecode: 'Disaggregated mode requires scaling.prefill and scaling.decode',
  disaggregatedRequiresPrefillGpu: 'Disaggregated mode requires scaling.prefill.gpu.count',
  disaggregatedRequiresDecodeGpu: 'Disaggregated mode requires scaling.decode.gpu.count',
  engineTypeRequired: 'engine.type is required',
  modelIdRequired: 'model.id is required when source is huggingface',
  providerCrdNotInstalled: (provider: string): string => `Provider '${provider}' CRD not installed in cluster`,
  // Beyond the seed: a provider nobody registered is not one whose CRD is missing.
  providerNotRegistered: (provider: string, registered: readonly string[]): string =>
    `Provider '${provider}' is not registered: no InferenceProviderConfig named '${provider}' (registered: ${registered.length > 0 ? registered.join(', ') : 'none'})`,
  // Beyond the seed: a provider whose config no worker ever reported on has no CRD status to go by.
  providerNotServed: (provider: string): string =>
    `No worker serves provider '${provider}': its InferenceProviderConfig has never been reported on by a provider worker (no status)`,
  // Beyond the seed's table (api/extended-rules.ts): faults a cluster would otherwise show only later.
  customSourceRequiresImage:
    'image is required when source is custom (the model is pre-loaded in the image; provider default images hold no model)',
  disaggregatedNoPrefillWorkers:
    'scaling.prefill.replicas is 0 but scaling.decode.replicas is not: a disaggregated deployment serves only with at least one prefill and one decode worker (set both to 0 to scale it to zero)',
  disaggregatedNoDecodeWorkers:
    'scaling.decode.replicas is 0 but scaling.prefill.replicas is not: a disaggregated deployment serves only with at least one prefill and one decode worker (set both to 0 to scale it to zero)',
  disaggregatedReplicasFixed:
    'scaling.replicas cannot change in disaggregated mode (kubectl scale sets it, but it only applies to aggregated mode): set scaling.prefill.replicas and scaling.decode.replicas instead',
  // Beyond the seed (api/storage-rules.ts): a claim the controller would create but not own, or cannot name.
  storageSizeWithForeignClaim: (path: string, claim: string, managed: string): string =>
    `${path}.size cannot be set with claimName '${claim}': size asks the controller to create (and delete with the deployment) the claim '${managed}', and '${claim}' is not it; remove size to mount the existing claim '${claim}', or remove claimName`,
  storageClaimNameTooLong: (path: string, length: number): string =>
    `${path}.name makes the name of the claim the controller creates (<ModelDeployment name>-<volume name>) ${length} characters long, more than 253: use a shorter volume name`,
  // Warnings
  servedNameIgnoredForCustom: 'servedName is ignored for custom source',
  contextLengthIgnoredForTrtllm:
    'engine.contextLength is ignored for TensorRT-LLM (context length is fixed when the engine is built)',
  trustRemoteCodeNotApplicable: (engine: string): string => `engine.trustRemoteCode does not apply to ${engine} and is ignored`,
  replicasIgnoredInDisaggregated:
    'scaling.replicas is ignored in disaggregated mode: set scaling.prefill.replicas and scaling.decode.replicas instead',
  replicasBeyondUsual: (fieldPath: string, count: number, usual: number): string =>
    `${fieldPath} is ${count}: each replica is a model server of its own (at least one pod with its own GPUs or CPUs); more than ${usual} is rare, check the count`,
  engineArgKeyInvalid: (rawKey: string): string => `engine.args key '${rawKey}' is not a valid flag name and is ignored`,
  gpuCountBeyondServer: (fieldPath: string, count: number, serverMax: number): string =>
    `${fieldPath} is ${count}: a replica's GPUs must all be on one node, and GPU servers have at most ${serverMax}, so this schedules only on nodes that advertise shared or partitioned GPUs (time-slicing, MIG)`,
} as const;

// The one validation of a ModelDeployment spec, used by the admission webhook, by reconciliation and by
// the offline CLI. Four layers: the CRD schema (types, enums, bounds, name patterns: what the API server
// itself checks), the seed's rules (seed 001 §8 and seed 000 tables, exact texts), our rules beyond the
// seed (api/extended-rules.ts), and the selected provider's override schema. Cluster facts arrive
// through `context`; the offline CLI may leave them out. Never throws: any input, however malformed,
// yields errors instead.

import { modelDeploymentSpecSchema } from './crd/model-deployment-schema.ts';
import { extendedRules } from './extended-rules.ts';
import { checkOverrides, isPlainObject, jsonTypeName, OVERRIDES_PATH, type OverrideSchema } from './overrides.ts';
import { field, servingMode } from './spec-helpers.ts';
import { podRules } from './pod-rules.ts';
import { checkStructure } from './structural.ts';
import type { Issue, ValidationResult } from './types.ts';
import { GPU_ENGINES, ValidationMessage } from './validation-messages.ts';

export interface ValidationContext {
  /**
   * Providers whose upstream CRDs are installed in the cluster. When given, a provider outside the list
   * is an error ("Provider '{name}' CRD not installed in cluster"); when omitted, the check is skipped.
   */
  installedProviderCRDs?: readonly string[];
  /** Every provider with an InferenceProviderConfig; when given, a provider outside it is reported as not registered. */
  registeredProviders?: readonly string[];
  /**
   * Registered providers whose config no worker has ever reported on: reported as served by no worker
   * (not as "CRD not installed": they report no CRD either way).
   */
  unreportedProviders?: readonly string[];
  /** The provider chosen by selection (status.provider.name), used when spec.provider.name is empty. */
  selectedProvider?: string;
  /**
   * Override schema of the explicit or selected provider; when omitted, overrides are not checked. In the
   * cluster it comes from the provider's InferenceProviderConfig (`overrideSchemaOf`), so the core needs
   * no provider code to check them.
   */
  overrideSchema?: OverrideSchema;
  /**
   * The stored spec, on an update. Enables the rules about a change (`kubectl scale` of a disaggregated
   * deployment); without it only the rules about the spec itself run.
   */
  previousSpec?: unknown;
}

export function validate(spec: unknown, context: ValidationContext = {}): ValidationResult {
  const result: ValidationResult = { errors: [], warnings: [] };
  try {
    if (!isPlainObject(spec)) {
      const message = spec == null ? 'spec is required' : `spec must be an object, got ${jsonTypeName(spec)}`;
      result.errors.push({ field: 'spec', message });
      return result;
    }
    const structural = checkStructure(spec, modelDeploymentSpecSchema, 'spec');
    // An empty engine.type is reported once, in the seed's words, not also as an enum violation.
    const emptyEngine = field(spec, 'engine', 'type') === '';
    result.errors.push(...structural.errors.filter((e) => !(emptyEngine && e.field === 'spec.engine.type')));
    result.warnings.push(...structural.warnings);

    seedRules(spec, result);
    extendedRules(spec, context.previousSpec, result);
    podRules(spec, result);
    providerRules(spec, context, result);
  } catch (err) {
    // Defensive only: the checks above are written not to throw. A bug must still not crash admission.
    result.errors.push({ field: 'spec', message: `spec could not be validated: ${String(err)}` });
  }
  return result;
}

/** The seed's schema-validation table. A field of the wrong type was reported above and is skipped here. */
function seedRules(spec: Record<string, unknown>, out: ValidationResult): void {
  const err = (fieldPath: string, message: string): void => {
    out.errors.push({ field: fieldPath, message });
  };
  const engineType = field(spec, 'engine', 'type');
  const modeValue = field(spec, 'serving', 'mode');
  // An unknown mode was reported by the structural check; the mode-dependent rules would only guess.
  const mode = modeValue == null || modeValue === 'aggregated' || modeValue === 'disaggregated' ? servingMode(spec) : undefined;

  if (mode === 'aggregated' && typeof engineType === 'string') {
    const displayName = Object.hasOwn(GPU_ENGINES, engineType) ? GPU_ENGINES[engineType as keyof typeof GPU_ENGINES] : undefined;
    const count = field(spec, 'resources', 'gpu', 'count');
    if (displayName && (count == null || count === 0)) {
      err('spec.resources.gpu.count', ValidationMessage.engineRequiresGpu(displayName));
    }
  }

  if (mode === 'disaggregated') {
    if (field(spec, 'resources', 'gpu') != null) {
      err('spec.resources.gpu', ValidationMessage.disaggregatedWithResourcesGpu);
    }
    const prefill = field(spec, 'scaling', 'prefill');
    const decode = field(spec, 'scaling', 'decode');
    if (prefill == null || decode == null) {
      err('spec.scaling', ValidationMessage.disaggregatedRequiresPrefillAndDecode);
    }
    if (isPlainObject(prefill) && lacksGpuCount(prefill)) {
      err('spec.scaling.prefill.gpu.count', ValidationMessage.disaggregatedRequiresPrefillGpu);
    }
    if (isPlainObject(decode) && lacksGpuCount(decode)) {
      err('spec.scaling.decode.gpu.count', ValidationMessage.disaggregatedRequiresDecodeGpu);
    }
  }

  if (engineType == null || engineType === '') {
    err('spec.engine.type', ValidationMessage.engineTypeRequired);
  }

  const source = field(spec, 'model', 'source');
  const id = field(spec, 'model', 'id');
  if ((source == null || source === 'huggingface') && (id == null || id === '')) {
    err('spec.model.id', ValidationMessage.modelIdRequired);
  }

  const served = field(spec, 'model', 'servedName');
  if (source === 'custom' && typeof served === 'string' && served !== '') {
    out.warnings.push({ field: 'spec.model.servedName', message: ValidationMessage.servedNameIgnoredForCustom });
  }

  engineWarnings(spec, engineType, out.warnings);
}

/**
 * A component without a GPU count, or with count 0, has no GPU; disaggregated workers need one. A count of
 * the wrong type was already reported by the structural check.
 */
function lacksGpuCount(component: Record<string, unknown>): boolean {
  const count = field(component, 'gpu', 'count');
  return count == null || count === 0;
}

/** Engine options the chosen engine ignores (seed 001 §15). */
function engineWarnings(spec: Record<string, unknown>, engineType: unknown, warnings: Issue[]): void {
  if (engineType === 'trtllm' && field(spec, 'engine', 'contextLength') != null) {
    warnings.push({ field: 'spec.engine.contextLength', message: ValidationMessage.contextLengthIgnoredForTrtllm });
  }
  if ((engineType === 'llamacpp' || engineType === 'trtllm') && field(spec, 'engine', 'trustRemoteCode') === true) {
    warnings.push({ field: 'spec.engine.trustRemoteCode', message: ValidationMessage.trustRemoteCodeNotApplicable(engineType) });
  }
}

function providerRules(spec: Record<string, unknown>, context: ValidationContext, out: ValidationResult): void {
  const explicit = field(spec, 'provider', 'name');
  const provider = typeof explicit === 'string' && explicit !== '' ? explicit : context.selectedProvider;

  if (provider && context.registeredProviders && !context.registeredProviders.includes(provider)) {
    out.errors.push({ field: 'spec.provider.name', message: ValidationMessage.providerNotRegistered(provider, context.registeredProviders), awaits: 'ProviderRegistration' });
  } else if (provider && context.unreportedProviders?.includes(provider)) {
    out.errors.push({ field: 'spec.provider.name', message: ValidationMessage.providerNotServed(provider), awaits: 'ProviderWorker' });
  } else if (provider && context.installedProviderCRDs && !context.installedProviderCRDs.includes(provider)) {
    out.errors.push({ field: 'spec.provider.name', message: ValidationMessage.providerCrdNotInstalled(provider), awaits: 'ProviderCrd' });
  }

  const overrides = field(spec, 'provider', 'overrides');
  if (context.overrideSchema && isPlainObject(overrides)) {
    const checked = checkOverrides(overrides, context.overrideSchema, OVERRIDES_PATH);
    out.errors.push(...checked.errors);
    out.warnings.push(...checked.warnings);
  }
}

// The one validation of a ModelDeployment spec, used by the admission webhook, by reconciliation and by
// the offline CLI. Four layers: the declaration (api/crd/model-deployment-schema.ts), checked by the one
// schema interpreter with the CRD's own CEL rules, which carry the seed's rules (seed 001 §8 and seed 000
// tables, exact texts) and ours; the seed's warnings and our rules beyond the seed (api/extended-rules.ts,
// api/pod-rules.ts), hand code across fields; and the selected provider's override schema. Cluster facts
// arrive through `context`; the offline CLI may leave them out. Never throws: any input, however
// malformed, yields errors instead.

import { modelDeploymentSpecSchema } from './crd/model-deployment-schema.ts';
import { extendedRules } from './extended-rules.ts';
import { checkOverrides, isPlainObject, jsonTypeName, OVERRIDES_PATH, type OverrideSchema } from './overrides.ts';
import { field } from './spec-helpers.ts';
import { podRules } from './pod-rules.ts';
import { schemaIssues } from './schema/issues.ts';
import { storageRules } from './storage-rules.ts';
import type { Issue, ValidationResult } from './types.ts';
import { ValidationMessage } from './validation-messages.ts';

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
  /**
   * The ModelDeployment's metadata.name: the claim the controller creates for a volume is named after it
   * (api/storage-rules.ts). Without it, the rule that compares claim names is skipped.
   */
  name?: string;
}

export function validate(spec: unknown, context: ValidationContext = {}): ValidationResult {
  const result: ValidationResult = { errors: [], warnings: [] };
  try {
    if (!isPlainObject(spec)) {
      const message = spec == null ? 'spec is required' : `spec must be an object, got ${jsonTypeName(spec)}`;
      result.errors.push({ field: 'spec', message });
      return result;
    }
    const checked = schemaIssues(modelDeploymentSpecSchema, withoutEmptyEngineType(spec), 'spec');
    result.errors.push(...checked.errors);
    result.warnings.push(...checked.warnings);

    seedWarnings(spec, result.warnings);
    extendedRules(spec, context.previousSpec, result);
    podRules(spec, result);
    storageRules(spec, context.name, result);
    providerRules(spec, context, result);
  } catch (err) {
    // Defensive only: the checks above are written not to throw. A bug must still not crash admission.
    result.errors.push({ field: 'spec', message: `spec could not be validated: ${String(err)}` });
  }
  return result;
}

/**
 * An empty engine.type is the seed's "engine.type is required" (its CEL rule), reported once: not also
 * as a value outside the enum, which would keep the rule from being read.
 */
function withoutEmptyEngineType(spec: Record<string, unknown>): Record<string, unknown> {
  const engine = field(spec, 'engine');
  if (!isPlainObject(engine) || field(engine, 'type') !== '') return spec;
  const { type: _empty, ...rest } = engine;
  return { ...spec, engine: rest };
}

/** The seed's warnings (seed 001 §8, §15); its errors are the CRD's CEL rules (api/crd/cel-rules.ts), evaluated with the schema. */
function seedWarnings(spec: Record<string, unknown>, warnings: Issue[]): void {
  const served = field(spec, 'model', 'servedName');
  if (field(spec, 'model', 'source') === 'custom' && typeof served === 'string' && served !== '') {
    warnings.push({ field: 'spec.model.servedName', message: ValidationMessage.servedNameIgnoredForCustom });
  }
  engineWarnings(spec, field(spec, 'engine', 'type'), warnings);
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

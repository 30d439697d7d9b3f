// What the controller would do with one ModelDeployment, computed offline: validate it, select a
// provider the way the core controller does, and ask that provider whether it can serve it. Shared by
// `render` and `explain`.
//
// The spec gets the CRD's own defaults first (the API server applies them before anything else sees
// the object), so selection rules evaluate the same spec they would see in the cluster.

import { applyDefaults } from '../../api/defaults.ts';
import { isPlainObject } from '../../api/overrides.ts';
import type { ModelDeployment, ModelDeploymentSpec, ValidationResult } from '../../api/types.ts';
import { selectProvider, type CompatibilityResult, type ProviderDefinition, type SelectionResult } from '../../providers/index.ts';
import type { ManifestDocument } from '../../present/documents.ts';
import { checkModelDeployment } from './objects.ts';
import type { ProviderCatalog } from './provider-catalog.ts';

export interface DeploymentPlan {
  doc: ManifestDocument;
  /** The object as the API server would store it (namespace and CRD defaults filled). */
  md: ModelDeployment;
  validation: ValidationResult;
  selection: SelectionResult;
  /** Built-in implementation of the selected provider. */
  provider?: ProviderDefinition;
  compatibility?: CompatibilityResult;
  /** Sentences saying why the deployment cannot be rendered; empty when it can. */
  problems: string[];
}

export interface PlanOptions {
  /** `--provider NAME`: render for this provider as if spec.provider.name named it. */
  provider?: string;
}

export function planDeployment(original: ManifestDocument, catalog: ProviderCatalog, options: PlanOptions = {}): DeploymentPlan {
  const doc = options.provider ? withExplicitProvider(original, options.provider) : original;
  const stored = checkModelDeployment(doc).md;
  const md: ModelDeployment = isPlainObject(stored.spec)
    ? { ...stored, spec: applyDefaults(stored.spec, { derivedFields: false }) }
    : stored;

  const selection = selectProvider(md, catalog.configs, { selectorEnabled: true });
  const selected = selection.selected?.name;
  const provider = selected ? catalog.definition(selected) : undefined;
  const validation = checkModelDeployment(doc, provider ? { overrideSchema: provider.overrideSchema } : {}).result;
  const compatibility = provider ? safeCompatibility(provider, md) : undefined;

  const problems = [
    ...validation.errors.map((e) => e.message),
    ...(selection.error ? [selection.error] : []),
    ...(selected && !provider ? [unknownProvider(selected, catalog)] : []),
    ...(compatibility?.errors ?? []),
  ];
  return { doc, md, validation, selection, provider, compatibility, problems };
}

function withExplicitProvider(doc: ManifestDocument, name: string): ManifestDocument {
  const spec = (isPlainObject(doc.object.spec) ? doc.object.spec : {}) as ModelDeploymentSpec;
  return { ...doc, object: { ...doc.object, spec: { ...spec, provider: { ...spec.provider, name } } } };
}

function unknownProvider(name: string, catalog: ProviderCatalog): string {
  const builtins = catalog.names.filter((n) => catalog.definition(n)).join(', ');
  return catalog.names.includes(name)
    ? `Provider '${name}' has no built-in implementation, so it cannot be rendered offline (built-in providers: ${builtins})`
    : `Provider '${name}' is unknown (built-in providers: ${builtins}; pass its InferenceProviderConfig with --provider-config)`;
}

function safeCompatibility(provider: ProviderDefinition, md: ModelDeployment): CompatibilityResult {
  try {
    return provider.compatibility(md);
  } catch (error) {
    return { compatible: false, errors: [`${provider.displayName} could not check the deployment: ${String(error)}`], warnings: [] };
  }
}

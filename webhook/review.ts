// What the webhook answers, as pure functions of the AdmissionRequest and the cluster facts read for
// it. Validation and defaulting are the very functions the reconcile path runs (api/validate.ts,
// api/defaults.ts), so admission and status always agree.

import { GROUP, MODEL_DEPLOYMENT_KIND } from '../api/constants.ts';
import { applyDefaults } from '../api/defaults.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { overrideSchemaOf } from '../api/override-schema-shape.ts';
import { isPlainObject } from '../api/overrides.ts';
import { classifyUpdate } from '../api/update-classification.ts';
import type { InferenceProviderConfig, ModelDeploymentSpec } from '../api/types.ts';
import { validate, type ValidationContext } from '../api/validate.ts';
import { installedProviderCrds, unreportedProviders } from '../providers/provider-configs.ts';
import { allow, allowWithPatch, deny, type AdmissionRequest, type AdmissionResponse } from './admission.ts';
import { capabilityWarnings } from './capabilities.ts';
import { diff } from './json-patch.ts';

export interface ClusterFacts {
  /** The InferenceProviderConfigs, or undefined when they could not be read: the checks that need them are skipped. */
  providerConfigs?: readonly InferenceProviderConfig[];
}

export interface MutateOptions {
  /**
   * Also persist model.servedName derived from model.id. Off by default: a stored servedName would
   * outlive a later change of model.id made with `kubectl apply`, which never removes fields it did not set.
   */
  persistDerivedFields?: boolean;
}

/** Joins several errors the way the reconcile path writes them into status.message. */
export const ERROR_SEPARATOR = '; ';

/** The admission warning for a provider whose CRD is missing: the seed's message, and what happens next. */
export function providerCrdWaitWarning(seedMessage: string): string {
  return `${seedMessage}: admitted; the deployment waits (Pending) until the CRD is installed`;
}

export function identityChangeWarning(fields: readonly string[]): string {
  return `Changing ${fields.join(', ')} deletes and recreates the provider resource: expect brief downtime, in-flight requests will fail`;
}

/**
 * The warning for an identity change the deployment's provider does not support (by the capabilities it
 * publishes). Nothing is deleted then: the provider refuses the new spec before any write, the
 * deployment turns Failed (ProviderCompatible=False), and the resource it runs now keeps serving the
 * previous spec — availability is kept until the spec is one the provider accepts again.
 */
export function unsupportedIdentityChangeWarning(fields: readonly string[], provider: string): string {
  return (
    `Changing ${fields.join(', ')} to what provider '${provider}' does not support: nothing is recreated; the deployment turns Failed ` +
    `and the provider resource it runs now keeps serving the previous spec until the change is reverted or the provider is changed`
  );
}

/**
 * Only creates and spec-changing updates of the main resource are reviewed. The webhook configuration
 * already filters the rest; this is the second line, so a misconfigured rule can still never block a
 * delete, a finalizer removal or a status write.
 */
function reviewed(req: AdmissionRequest): boolean {
  if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return false;
  if (req.subResource) return false;
  if (req.kind && (req.kind.group !== GROUP || req.kind.kind !== MODEL_DEPLOYMENT_KIND)) return false;
  return isPlainObject(req.object);
}

function specOf(obj: unknown): unknown {
  return isPlainObject(obj) ? obj.spec : undefined;
}

function stringAt(obj: unknown, ...path: string[]): string | undefined {
  let v: unknown = obj;
  for (const key of path) v = isPlainObject(v) ? v[key] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function validateRequest(req: AdmissionRequest, facts: ClusterFacts = {}): AdmissionResponse {
  if (!reviewed(req)) return allow(req.uid);
  const spec = specOf(req.object);
  if (req.operation === 'UPDATE' && isPlainObject(req.oldObject) && jsonEqual(spec, specOf(req.oldObject))) {
    // Metadata-only update that slipped past matchConditions (an older API server): not ours to judge.
    return allow(req.uid);
  }

  // Selection writes status.provider.name once; on an update the stored status tells which provider runs it.
  const selected = stringAt(req.object, 'status', 'provider', 'name') ?? stringAt(req.oldObject, 'status', 'provider', 'name');
  const explicit = stringAt(spec, 'provider', 'name');
  const provider = explicit ?? selected;
  // The name of the object (claims the controller creates are named after it); a create by generateName may have none yet.
  const name = stringAt(req.object, 'metadata', 'name') ?? (req.name || undefined);
  const context: ValidationContext = { ...(selected ? { selectedProvider: selected } : {}), ...(name ? { name } : {}) };
  if (provider && facts.providerConfigs) {
    context.installedProviderCRDs = installedProviderCrds(facts.providerConfigs);
    context.registeredProviders = facts.providerConfigs.map((c) => c.metadata.name ?? '');
    context.unreportedProviders = unreportedProviders(facts.providerConfigs);
    // The provider publishes the overrides it understands; with no provider chosen yet (a create left
    // to selection) they are checked by the provider's compatibility step instead.
    const overrideSchema = overrideSchemaOf(facts.providerConfigs.find((c) => c.metadata?.name === provider));
    if (overrideSchema) context.overrideSchema = overrideSchema;
  }
  // Rules about a change (kubectl scale of a disaggregated deployment) compare with the stored spec.
  if (req.operation === 'UPDATE' && isPlainObject(req.oldObject)) context.previousSpec = specOf(req.oldObject);

  const result = validate(spec, context);
  // A provider whose CRD is not installed yet is something to wait for, not a fault of the spec: a
  // GitOps sync applies CRDs and the objects using them together, and a deployment left to selection
  // already waits for a CRD. Admitted with the seed's words as a warning; the deployment then waits,
  // Pending, with the same message in its Validated condition until the CRD is there.
  const errors = result.errors.filter((e) => e.awaits !== 'ProviderCrd');
  const warnings = [...result.errors.filter((e) => e.awaits === 'ProviderCrd').map((e) => providerCrdWaitWarning(e.message)), ...result.warnings.map((w) => w.message)];
  const unsupported = errors.length === 0 && facts.providerConfigs ? capabilityWarnings(spec, provider, facts.providerConfigs) : [];
  warnings.push(...unsupported);
  if (req.operation === 'UPDATE' && errors.length === 0 && isPlainObject(spec) && isPlainObject(specOf(req.oldObject))) {
    const { identity } = classifyUpdate(specOf(req.oldObject) as ModelDeploymentSpec, spec as ModelDeploymentSpec);
    // What happens next depends on whether the provider that runs it takes the new spec: say the one that
    // will happen. A change of provider.name itself is a switch, with its own course (not judged here).
    const refused = provider !== undefined && unsupported.length > 0 && !identity.includes('provider.name');
    if (identity.length > 0) warnings.push(refused ? unsupportedIdentityChangeWarning(identity, provider) : identityChangeWarning(identity));
  }

  if (errors.length > 0) return deny(req.uid, dedupe(errors.map((e) => e.message)).join(ERROR_SEPARATOR), dedupe(warnings));
  return allow(req.uid, dedupe(warnings));
}

export function mutateRequest(req: AdmissionRequest, options: MutateOptions = {}): AdmissionResponse {
  if (!reviewed(req)) return allow(req.uid);
  const spec = specOf(req.object);
  // A spec that is not an object is left for validation to reject; defaults cannot repair it.
  if (!isPlainObject(spec)) return allow(req.uid);
  const defaulted = applyDefaults(spec as ModelDeploymentSpec, { derivedFields: options.persistDerivedFields ?? false });
  return allowWithPatch(req.uid, diff(spec, defaulted, '/spec'));
}

function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)];
}

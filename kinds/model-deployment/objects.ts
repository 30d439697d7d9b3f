// Turns manifest documents into typed objects, with the checks the API server would make on top of the
// spec (apiVersion, kind, metadata.name) so the offline commands reject what `kubectl apply` would.

import { API_VERSION, MODEL_DEPLOYMENT_KIND, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { isPlainObject } from '../../api/overrides.ts';
import type { InferenceProviderConfig, Issue, ModelDeployment, ValidationResult } from '../../api/types.ts';
import { validate, type ValidationContext } from '../../api/validate.ts';
import { validateProviderConfigSpec } from '../../api/validate-provider-config.ts';
import { describeObject, kindOf, type ManifestDocument } from '../../present/documents.ts';
import { selectionRuleCompileErrors } from '../../providers/rule-errors.ts';
import { CliError } from '../../present/errors.ts';

/** DNS-1123 subdomain, the rule for object names. */
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_NAME_LENGTH = 253;

/** Issues of the object envelope: apiVersion, kind, metadata.name. */
function envelopeIssues(object: Record<string, unknown>, kind: string): Issue[] {
  const issues: Issue[] = [];
  if (object.apiVersion !== API_VERSION) {
    issues.push({ field: 'apiVersion', message: `apiVersion must be ${API_VERSION}, got ${JSON.stringify(object.apiVersion ?? null)}` });
  }
  if (object.kind !== kind) issues.push({ field: 'kind', message: `kind must be ${kind}, got ${JSON.stringify(object.kind ?? null)}` });
  const meta = object.metadata;
  const name = isPlainObject(meta) ? meta.name : undefined;
  if (typeof name !== 'string' || name === '') {
    issues.push({ field: 'metadata.name', message: 'metadata.name is required' });
  } else if (name.length > MAX_NAME_LENGTH) {
    // The API server's sentence, with the length instead of the whole name.
    issues.push({ field: 'metadata.name', message: `metadata.name must be no more than ${MAX_NAME_LENGTH} characters, got ${name.length}` });
  } else if (!OBJECT_NAME.test(name)) {
    issues.push({ field: 'metadata.name', message: `metadata.name must be a lower-case DNS name such as "llama-8b", got ${JSON.stringify(name)}` });
  }
  return issues;
}

export interface CheckedModelDeployment {
  doc: ManifestDocument;
  md: ModelDeployment;
  result: ValidationResult;
}

export function checkModelDeployment(doc: ManifestDocument, context: ValidationContext = {}): CheckedModelDeployment {
  const object = doc.object;
  const envelope = envelopeIssues(object, MODEL_DEPLOYMENT_KIND);
  const metadata = isPlainObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
  const spec = validate(object.spec, { ...context, ...(name ? { name } : {}) });
  const md = {
    ...object,
    metadata: { ...metadata, namespace: typeof metadata.namespace === 'string' && metadata.namespace ? metadata.namespace : 'default' },
  } as unknown as ModelDeployment;
  return { doc, md, result: { errors: [...envelope, ...spec.errors], warnings: spec.warnings } };
}

/** Reads InferenceProviderConfigs; any problem is a CliError, since a broken config makes every answer wrong. */
export function toProviderConfigs(docs: readonly ManifestDocument[]): InferenceProviderConfig[] {
  return docs.map((doc) => {
    if (kindOf(doc) !== PROVIDER_CONFIG_KIND) {
      throw new CliError(`${doc.source} holds ${describeObject(doc)}, not an ${PROVIDER_CONFIG_KIND}.`);
    }
    const issues = checkProviderConfig(doc).errors;
    const first = issues[0];
    if (first) {
      const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
      throw new CliError(`${doc.source}: ${first.message}${more}.`);
    }
    return doc.object as unknown as InferenceProviderConfig;
  });
}

export function checkProviderConfig(doc: ManifestDocument): ValidationResult {
  const spec = validateProviderConfigSpec(doc.object.spec);
  // The admission webhook's check (webhook/provider-config-review.ts): a selection rule that does not
  // compile, or compiles to something other than a boolean, is refused naming the rule.
  const rules = selectionRuleCompileErrors(doc.object.spec);
  return { errors: [...envelopeIssues(doc.object, PROVIDER_CONFIG_KIND), ...spec.errors, ...rules], warnings: spec.warnings };
}

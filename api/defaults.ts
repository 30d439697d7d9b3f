// Defaults of a ModelDeployment spec (seed 001 §4.1, §4.4, §15.2). The plain ones are the `default:`
// values of the schema (api/crd/model-deployment-schema.ts), applied as the API server applies them; the
// only hand code is the default the API server cannot compute because it depends on another field:
// servedName from the model id (for a huggingface model). Pure: returns a new object and never throws.
// Fields of the wrong type are left alone for validation to report.

import { modelDeploymentSpecSchema } from './crd/model-deployment-schema.ts';
import { isPlainObject } from './overrides.ts';
import { withDefaults } from './schema/stored.ts';
import { modelBasename } from './spec-helpers.ts';
import type { ModelDeploymentSpec } from './types.ts';

export interface DefaultsOptions {
  /**
   * Also fill model.servedName from model.id (default true). A mutating webhook may prefer false: a
   * persisted servedName would survive a later change of model.id made with `kubectl apply`.
   */
  derivedFields?: boolean;
}

export function applyDefaults(spec: ModelDeploymentSpec, options: DefaultsOptions = {}): ModelDeploymentSpec {
  const out = withDefaults(spec, modelDeploymentSpecSchema) as ModelDeploymentSpec;
  // withDefaults made `model` a new object (the schema defaults it to {}), so filling it leaves `spec` alone.
  const model: unknown = isPlainObject(out) ? out.model : undefined;
  if ((options.derivedFields ?? true) && isPlainObject(model) && model.servedName == null) {
    if (model.source === 'huggingface' && typeof model.id === 'string' && model.id !== '') model.servedName = modelBasename(model.id);
  }
  return out;
}

import { classifyUpdate } from '../../api/update-classification.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { stableStringify } from '../../providers/shared/canonical.ts';

/**
 * The identity fields (seed 001 §4.11) a provider resource was rendered from, recorded on it as an
 * annotation: a later spec whose identity differs needs delete-and-recreate, not an in-place update.
 * provider.name is not here: a provider change is a switch between providers, handled by the workflow.
 */
export const IDENTITY_ANNOTATION = 'kubeairunway.ai/identity';

export function identityOf(spec: ModelDeploymentSpec | undefined): string {
  return stableStringify({
    model: { id: spec?.model?.id ?? null, source: spec?.model?.source ?? null },
    engine: { type: spec?.engine?.type ?? null },
    serving: { mode: spec?.serving?.mode ?? null },
  });
}

/** Identity fields that differ between a recorded identity and the current spec; none when nothing was recorded. */
export function changedIdentityFields(recorded: string | undefined, spec: ModelDeploymentSpec | undefined): string[] {
  if (!recorded) return [];
  let before: ModelDeploymentSpec;
  try {
    before = stripNulls(JSON.parse(recorded)) as ModelDeploymentSpec;
  } catch {
    return [];
  }
  const after = stripNulls(JSON.parse(identityOf(spec))) as ModelDeploymentSpec;
  return classifyUpdate(before, after).identity.filter((f) => f !== 'provider.name');
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, stripNulls(v)]));
  }
  return value;
}

// Each built-in provider registers its InferenceProviderConfig as is (worker/registration.ts); what it
// publishes there is what admission checks a deployment's overrides with, so it must be the very schema
// the provider's own compatibility check uses, and survive being stored by the API server.

import { describe, expect, it } from 'vitest';
import { checkOverrideSchema, overrideSchemaOf } from '../api/override-schema-shape.ts';
import { validateProviderConfigSpec } from '../api/validate-provider-config.ts';
import { builtinProviders } from './index.ts';

describe.each(builtinProviders.map((p) => [p.name, p] as const))('%s InferenceProviderConfig', (_name, provider) => {
  const stored = JSON.parse(JSON.stringify(provider.config)) as typeof provider.config;

  it('publishes the override schema its compatibility check uses', () => {
    expect(stored.spec.overrideSchema).toEqual(provider.overrideSchema);
    expect(overrideSchemaOf(stored)).toEqual(provider.overrideSchema);
  });

  it('passes the offline check of provider configs, override schema included', () => {
    expect(validateProviderConfigSpec(stored.spec)).toEqual({ errors: [], warnings: [] });
    expect(checkOverrideSchema(stored.spec.overrideSchema, 'spec.overrideSchema')).toEqual({ errors: [], warnings: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { builtinVersion, versionOfResource } from './crd-version.ts';
import { deploymentProvider, kaitoProvider } from './index.ts';

describe('versionOfResource', () => {
  it('a built-in kind is served in its first version, with no CRD at all', () => {
    expect(versionOfResource(deploymentProvider.resource, undefined)).toEqual({ apiVersion: 'apps/v1' });
    expect(builtinVersion({ group: '', kind: 'Service', plural: 'services', versions: ['v1'], builtin: true })).toEqual({ apiVersion: 'v1' });
  });

  it('a custom resource still needs its CRD, Established', () => {
    expect(versionOfResource(kaitoProvider.resource, undefined)).toBeUndefined();
    const crd = { spec: { versions: [{ name: 'v1beta1', served: true }] }, status: { conditions: [{ type: 'Established', status: 'True' }] } };
    expect(versionOfResource(kaitoProvider.resource, crd)).toEqual({ apiVersion: 'kaito.sh/v1beta1' });
  });
});

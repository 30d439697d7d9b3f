// The check before applying must never refuse what a real cluster accepts: every golden input of every
// built-in provider, rendered at every version it renders, is checked against the upstream projects'
// own CRDs (data beside the repository, see devstack/upstream-crds.ts; skipped when absent). The
// server-side proof of the same renderings is the conformance check (test/conformance).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { goldenInputs } from '../../providers/golden-inputs.ts';
import { builtinProviders } from '../../providers/index.ts';
import { crdRef } from '../../providers/crd-version.ts';
import { upstreamCrdsDir } from '../../devstack/upstream-crds.ts';
import { schemaRefusal } from './refusal.ts';

const dir = upstreamCrdsDir(resolve(import.meta.dirname, '..', '..'));
const FILES: Record<string, string> = {
  'workspaces.kaito.sh': 'kaito-workspaces.yaml',
  'dynamographdeployments.nvidia.com': 'dynamo-dynamographdeployments.yaml',
  'rayservices.ray.io': 'kuberay-rayservices.yaml',
};
const present = Object.values(FILES).every((f) => existsSync(resolve(dir, f)));

describe.skipIf(!present)('renderings against the upstream CRDs (skipped: ../shared/upstream-crds absent)', () => {
  // Read in the test, not here: a skipped describe's body still runs to collect its tests.
  const crds = () => new Map(Object.entries(FILES).map(([name, file]) => [name, parse(readFileSync(resolve(dir, file), 'utf8')) as unknown]));

  it('no golden rendering of a built-in provider is refused by the schema check', () => {
    const upstream = crds();
    const checked: string[] = [];
    const refused: string[] = [];
    // A built-in kind (the deployment provider's apps/v1 Deployment) has no CRD: the API server checks it.
    const withCrd = builtinProviders.filter((p) => !p.resource.builtin);
    for (const provider of withCrd) {
      const crd = upstream.get(crdRef(provider.resource).name);
      expect(crd, `upstream CRD of ${provider.name}`).toBeDefined();
      for (const input of goldenInputs().filter((g) => g.provider === provider.name)) {
        for (const version of provider.resource.versions) {
          const [primary] = provider.render(input.md, { apiVersion: `${provider.resource.group}/${version}` }).objects;
          const refusal = schemaRefusal(primary!, crd);
          checked.push(`${provider.name}/${input.name}@${version}`);
          if (refusal) refused.push(`${provider.name}/${input.name}@${version}: ${refusal}`);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(checked.length).toBeGreaterThanOrEqual(withCrd.length);
  });
});

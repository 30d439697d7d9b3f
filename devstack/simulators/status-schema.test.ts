import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../../api/types.ts';
import type { ProviderDefinition } from '../../providers/contract.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { checkAgainstSchema, schemaOfVersion, type OpenApiSchema } from '../../kube/schema-check.ts';
import { dynamoProvider } from '../../providers/dynamo/index.ts';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import { example2, example3 } from '../../providers/testing/fixtures.ts';
import { mapDynamoStatus } from '../../providers/dynamo/status.ts';
import { hasUpstreamCrds, loadUpstreamCrd, upstreamCrdsDir, type UpstreamCrd } from '../upstream-crds.ts';
import { dynamoGraphDeployment, kaitoWorkspace } from './scripts.ts';
import type { UpstreamScript } from './simulator.ts';

// The simulated KAITO and Dynamo operators stand in for real ones, so what they write must be what a
// real operator can write: status fields the upstream CRD's status schema of that version declares,
// in their types, with what that schema requires (anything else the API server would prune or refuse,
// and our status mapping would have been tested on fiction). The upstream CRDs are read from
// ../shared/upstream-crds (never copied into the repository).
const root = resolve(import.meta.dirname, '..', '..');
const needed: UpstreamCrd[] = ['kaitoWorkspaces', 'dynamoGraphDeployments'];
const present = hasUpstreamCrds(root, needed);
const title = `simulated operators write only upstream status fields${present ? '' : ` (skipped: the upstream CRD files are not in ${upstreamCrdsDir(root)})`}`;

const crds = new Map<UpstreamCrd, AnyObject>();
/** The status subtree of one version's schema, as the root of a check of `{ status }`. */
function statusSchema(which: UpstreamCrd, version: string): OpenApiSchema {
  if (!crds.has(which)) crds.set(which, loadUpstreamCrd(root, which));
  const schema = schemaOfVersion(crds.get(which), version)!;
  return { type: 'object', properties: { status: schema.properties!.status! } };
}

function writes(script: UpstreamScript, obj: AnyObject): Record<string, Record<string, unknown>> {
  return { progressing: script.progressing(obj), ready: script.ready(obj), failed: script.failed(obj, 'insufficient GPUs') };
}

const rendered = (provider: ProviderDefinition, md: ModelDeployment, apiVersion: string) =>
  ({ ...provider.render(md, { apiVersion }).objects[0], metadata: { name: md.metadata.name, namespace: 'default', generation: 1 } }) as unknown as AnyObject;

describe(title, () => {
  for (const version of ['v1alpha1', 'v1beta1']) {
    it.skipIf(!present)(`Dynamo ${version}: every status write is declared (state enum, per-component map with its required fields, conditions)`, () => {
      const schema = statusSchema('dynamoGraphDeployments', version);
      const obj = rendered(dynamoProvider, example3(), `nvidia.com/${version}`);
      for (const [stage, status] of Object.entries(writes(dynamoGraphDeployment, obj))) {
        expect({ stage, problems: checkAgainstSchema({ status }, schema).map((p) => p.message) }).toEqual({ stage, problems: [] });
        expect(Object.keys(status.components ?? status.services ?? {}).sort()).toEqual(['Frontend', 'VllmDecodeWorker', 'VllmPrefillWorker']);
      }
    });

    it.skipIf(!present)(`KAITO ${version}: every status write is declared`, () => {
      const schema = statusSchema('kaitoWorkspaces', version);
      const obj = rendered(kaitoProvider, example2(), `${kaitoProvider.resource.group}/${kaitoProvider.resource.versions[0]}`);
      for (const [stage, status] of Object.entries(writes(kaitoWorkspace, obj))) {
        expect({ stage, problems: checkAgainstSchema({ status }, schema).map((p) => p.message) }).toEqual({ stage, problems: [] });
      }
    });
  }

  it.skipIf(!present)('the check refuses what the Dynamo simulator used to write (status.message, state deploying)', () => {
    const problems = checkAgainstSchema({ status: { state: 'deploying', message: 'x' } }, statusSchema('dynamoGraphDeployments', 'v1beta1')).map((p) => p.message);
    expect(problems).toEqual([
      'status.state: unsupported value "deploying": supported values: "initializing", "pending", "successful", "failed"',
      'status.message: field not declared in schema',
    ]);
  });
});

describe('Dynamo simulator writes map through our status mapping, in both versions', () => {
  for (const version of ['v1alpha1', 'v1beta1']) {
    it(`${version}: progressing → Deploying 0/6, ready → Running 6/6, failed → Failed with the message`, () => {
      const obj = rendered(dynamoProvider, example3(), `nvidia.com/${version}`);
      const stages = writes(dynamoGraphDeployment, obj);
      expect(mapDynamoStatus({ ...obj, status: stages.progressing })).toMatchObject({ phase: 'Deploying', replicas: { desired: 6, ready: 0, available: 0 } });
      expect(mapDynamoStatus({ ...obj, status: stages.ready })).toMatchObject({ phase: 'Running', replicas: { desired: 6, ready: 6, available: 6 } });
      expect(mapDynamoStatus({ ...obj, status: stages.failed })).toMatchObject({ phase: 'Failed', message: 'insufficient GPUs' });
    });
  }
});

// The strict stand-ins of the KAITO and Dynamo CRDs (examples/upstream-crds/, what `npm run dev`
// installs without ../shared/upstream-crds) on a real API server: they install, take what we render
// (server-side apply, as the controller writes) and the simulated operators' status, and refuse a field
// upstream does not declare, as the upstream CRDs do. The stack's own (upstream) CRDs are put back after.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../../api/testing/fixtures.ts';
import { installCrds, readCrdFiles } from '../../devstack/crds.ts';
import { testStackCrds } from '../../devstack/crd-files.ts';
import { dynamoGraphDeployment, kaitoWorkspace } from '../../devstack/simulators/scripts.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { dynamoProvider } from '../../providers/dynamo/index.ts';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import { example1, example2, example3, modelDeployment, withEverything } from '../../providers/testing/fixtures.ts';
import { testKube, type TestKube } from '../support/env.ts';

const root = resolve(import.meta.dirname, '..', '..');
const FIELD_MANAGER = 'stand-in-test';

describe('strict stand-in CRDs on the API server', () => {
  let kube: TestKube;
  const objects = () => new CustomObjects(kube.kc);

  beforeAll(async () => {
    kube = await testKube('crd-stand-ins');
    await installCrds(kube.kc, readCrdFiles(['dynamo-graphdeployment.yaml', 'kaito-workspace.yaml'].map((f) => resolve(root, 'examples/upstream-crds', f))));
  });

  afterAll(async () => {
    await kube?.cleanup();
    await installCrds(kube.kc, testStackCrds(root).crds);
  });

  /** Applies the object as the controller does, then the simulated operator's statuses; returns what was stored. */
  async function roundTrip(obj: AnyObject, plural: string, statuses: Record<string, unknown>[]): Promise<AnyObject> {
    const [group, version] = obj.apiVersion!.split('/') as [string, string];
    const ref = { group, version, plural, namespace: kube.namespace, name: obj.metadata!.name! };
    const body = { ...obj, metadata: { ...obj.metadata, namespace: kube.namespace, ownerReferences: undefined } } as AnyObject;
    const stored = await objects().apply(ref, body, FIELD_MANAGER);
    for (const status of statuses) await objects().mergePatchStatus(ref, { status });
    const after = (await objects().get(ref))!;
    expect(after.status).toEqual(statuses.at(-1));
    return stored;
  }

  it('Dynamo v1beta1: every rendering stored as sent (nothing pruned), every simulated status kept', async () => {
    for (const md of [example1(), example3(), modelDeployment('full', withEverything(gpuVllmSpec()))]) {
      const obj = dynamoProvider.render(md, { apiVersion: 'nvidia.com/v1beta1' }).objects[0] as unknown as AnyObject;
      const stored = await roundTrip(obj, 'dynamographdeployments', [dynamoGraphDeployment.progressing(obj), dynamoGraphDeployment.ready(obj)]);
      expect(stored.spec).toEqual(obj.spec);
    }
  });

  it("Dynamo: the seed's router-mode key is refused in either version, as by the upstream CRD", async () => {
    const beta = dynamoProvider.render(example1(), { apiVersion: 'nvidia.com/v1beta1' }).objects[0] as unknown as AnyObject & { spec: { components: Record<string, unknown>[] } };
    beta.metadata!.name = 'router-mode-beta';
    beta.spec.components[0]!['router-mode'] = 'kv';
    await expect(roundTrip(beta, 'dynamographdeployments', [])).rejects.toThrow(/router-mode: field not declared in schema/);
    const alpha = dynamoProvider.render(example1(), { apiVersion: 'nvidia.com/v1alpha1' }).objects[0] as unknown as AnyObject & { spec: { services: Record<string, Record<string, unknown>> } };
    alpha.metadata!.name = 'router-mode-alpha';
    alpha.spec.services.Frontend!['router-mode'] = 'kv';
    await expect(roundTrip(alpha, 'dynamographdeployments', [])).rejects.toThrow(/router-mode: field not declared in schema/);
  });

  it('KAITO v1beta1: every rendering stored as sent, every simulated status kept; a `spec` is refused', async () => {
    for (const md of [example2(), modelDeployment('gpu', gpuVllmSpec())]) {
      const obj = kaitoProvider.render(md, { apiVersion: 'kaito.sh/v1beta1' }).objects[0] as unknown as AnyObject;
      const stored = await roundTrip(obj, 'workspaces', [kaitoWorkspace.progressing(obj), kaitoWorkspace.ready(obj)]);
      // Everything sent is kept; the API server adds the schema's default `preset.accessMode: public`, as upstream's does.
      expect(stored).toMatchObject({ resource: obj.resource, inference: obj.inference });
    }
    const bad = { ...(kaitoProvider.render(example2(), { apiVersion: 'kaito.sh/v1beta1' }).objects[0] as unknown as AnyObject), spec: {} } as AnyObject;
    bad.metadata = { ...bad.metadata, name: 'with-spec' };
    await expect(roundTrip(bad, 'workspaces', [])).rejects.toThrow(/spec: field not declared in schema/);
  });
});

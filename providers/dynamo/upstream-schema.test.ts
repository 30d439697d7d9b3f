import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../../api/testing/fixtures.ts';
import { hasUpstreamCrds, loadUpstreamCrd, upstreamCrdPath } from '../../devstack/upstream-crds.ts';
import { checkAgainstSchema, schemaOfVersion } from '../../kube/schema-check.ts';
import { example1, example3, modelDeployment, withEverything } from '../testing/fixtures.ts';
import type { Json } from '../testing/fixtures.ts';
import { dynamoProvider } from './index.ts';

// Every field the renderer writes must be one the upstream DynamoGraphDeployment schema of that version
// declares, in its type: the API server refuses anything else on server-side apply (issue 25: the seed's
// `router-mode` key made every apply fail). The upstream CRD is read from ../shared/upstream-crds (data,
// never copied into the repository); without it there is nothing to check against.
const root = resolve(import.meta.dirname, '..', '..');
const present = hasUpstreamCrds(root, ['dynamoGraphDeployments']);
const skipReason = present ? '' : ` (skipped: ${upstreamCrdPath(root, 'dynamoGraphDeployments')} is absent)`;
const crd = present ? loadUpstreamCrd(root, 'dynamoGraphDeployments') : undefined;

const inputs = {
  'seed Example 1': example1(),
  'seed Example 3 (disaggregated)': example3(),
  'everything set': modelDeployment('full', { ...withEverything(gpuVllmSpec()), image: 'registry.example.com/vllm-runtime:custom' }),
  'SGLang disaggregated, router none, frontend overrides': modelDeployment('sg', {
    ...example3().spec,
    engine: { type: 'sglang', contextLength: 4096 },
    provider: { name: 'dynamo', overrides: { routerMode: 'none', frontend: { replicas: 0, resources: { cpu: 1, memory: '1Gi' } } } },
  }),
  'TensorRT-LLM on CPU limits': modelDeployment('trt', { ...gpuVllmSpec(), engine: { type: 'trtllm' }, resources: { gpu: { count: 1 }, cpu: '8', memory: '16Gi' } }),
};

describe(`Dynamo renderings against the upstream DynamoGraphDeployment schema${skipReason}`, () => {
  for (const version of ['v1alpha1', 'v1beta1']) {
    for (const [label, md] of Object.entries(inputs)) {
      it.skipIf(!present)(`${version}: ${label} has only declared fields`, () => {
        const schema = schemaOfVersion(crd, version)!;
        const [object] = dynamoProvider.render(md, { apiVersion: `nvidia.com/${version}` }).objects;
        expect(checkAgainstSchema(object, schema).map((p) => p.message)).toEqual([]);
      });
    }
  }

  it.skipIf(!present)("the check sees the seed's `router-mode` key (so the tests above can fail)", () => {
    const [object] = dynamoProvider.render(example1(), { apiVersion: 'nvidia.com/v1alpha1' }).objects as Json[];
    object.spec.services.Frontend['router-mode'] = 'round-robin';
    expect(checkAgainstSchema(object, schemaOfVersion(crd, 'v1alpha1')!).map((p) => p.message)).toEqual([
      'spec.services.Frontend.router-mode: field not declared in schema',
    ]);
  });
});

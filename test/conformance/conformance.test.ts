// `kubeairunway conformance` against the real upstream CRDs on the local stack: every built-in provider's
// rendering of every golden input and example, in every API version we render and the CRD serves, is
// accepted by a server-side dry-run with fieldValidation=Strict, with nothing pruned. The counts are
// asserted too, so the check cannot pass by checking nothing; and the checker is shown to catch a
// refusal, a pruned field and a missing CRD on this same API server.
import { dirname, join } from 'node:path';
import { readCrdFiles } from '../../devstack/crds.ts';
import { loadUpstreamCrd } from '../../devstack/upstream-crds.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { resolveTool } from '../../tools/resolve.ts';
import { GATEWAY_API_CRD_DIR } from '../../tools/versions.ts';
import { describe, expect, it } from 'vitest';
import { hasUpstreamCrds } from '../../devstack/upstream-crds.ts';
import { conformanceCommand } from '../../cli/commands/conformance.ts';
import { discoverTarget, dryRunCase } from '../../cli/conformance/cluster.ts';
import type { ConformanceReport, ObjectResult } from '../../cli/conformance/report.ts';
import type { CliIO } from '../../cli/io.ts';
import { processIO } from '../../cli/io.ts';
import { runCli } from '../../cli/program.ts';
import { KubeRest } from '../../kube/rest.ts';
import { goldenInputs } from '../../providers/golden-inputs.ts';
import { kubeConfig, stackInfo } from '../support/env.ts';
import { dynamoCrd, installAndServe, withUpstreamCrds } from './crds.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What examples/ gives each target, per API version: the ModelDeployments rendered by every provider that
 * can serve them (cpu-gguf-kaito, cpu-llamacpp-minimal and llama-cpu-deployment: KAITO and the deployment
 * provider, llama.cpp on CPU; gpu-vllm-dynamo: all four; disaggregated-dynamo: Dynamo, KubeRay and the
 * deployment provider, KAITO has no disaggregated serving) and the ScaledObject of each AsyncActor example
 * (standalone and binding).
 */
const EXAMPLES_PER_VERSION: Record<string, number> = { deployment: 5, kaito: 4, dynamo: 2, kuberay: 2, keda: 2 };

function goldensOf(provider: string): number {
  return goldenInputs().filter((g) => g.provider === provider).length;
}

async function conformance(args: string[]): Promise<{ code: number; report: ConformanceReport; stderr: string }> {
  let stdout = '';
  let stderr = '';
  // The real file system: the command reads the repository's examples/ as a user's checkout has it.
  const io: CliIO = { ...processIO(), stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) };
  const code = await runCli(['conformance', '--kubeconfig', stackInfo().kubeconfigPath, '-o', 'json', ...args], io, [conformanceCommand]);
  if (!stdout.startsWith('{')) throw new Error(`conformance printed no report (exit ${code}): ${stderr}`);
  return { code, report: JSON.parse(stdout) as ConformanceReport, stderr };
}

const countBy = (results: readonly ObjectResult[]) => {
  const counts: Record<string, number> = {};
  for (const r of results) counts[`${r.target} ${r.apiVersion}`] = (counts[`${r.target} ${r.apiVersion}`] ?? 0) + 1;
  return counts;
};
const problems = (results: readonly ObjectResult[]) => results.filter((r) => r.outcome !== 'accepted');

describe.skipIf(!hasUpstreamCrds(ROOT, ['kaitoWorkspaces', 'dynamoGraphDeployments']))('kubeairunway conformance against the upstream CRDs', () => {
  const kc = kubeConfig();
  const kube = withUpstreamCrds(kc, ROOT, 'conformance');

  it('the deployment provider, KAITO, KubeRay, KEDA and Dynamo v1alpha1: every object accepted as sent', async () => {
    await installAndServe(kc, [dynamoCrd(ROOT, ['v1alpha1'], 'v1alpha1')]);
    const { code, report } = await conformance(['-n', kube.namespace]);

    expect(problems(report.results)).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.targets.map((t) => [t.target, t.status, t.checked])).toEqual([
      ['deployment', 'checked', ['apps/v1']],
      ['dynamo', 'checked', ['nvidia.com/v1alpha1']],
      ['kaito', 'checked', ['kaito.sh/v1beta1']],
      ['kuberay', 'checked', ['ray.io/v1']],
      ['keda', 'checked', ['keda.sh/v1alpha1']],
      // The shared stack installs neither the Gateway API nor its Inference Extension (checked below).
      ['httproute', 'skipped', []],
      ['inferencepool', 'skipped', []],
    ]);
    expect(countBy(report.results)).toEqual({
      'deployment apps/v1': goldensOf('deployment') + EXAMPLES_PER_VERSION.deployment!,
      'dynamo nvidia.com/v1alpha1': goldensOf('dynamo') + EXAMPLES_PER_VERSION.dynamo!,
      'kaito kaito.sh/v1beta1': goldensOf('kaito') + EXAMPLES_PER_VERSION.kaito!,
      'kuberay ray.io/v1': goldensOf('kuberay') + EXAMPLES_PER_VERSION.kuberay!,
      'keda keda.sh/v1alpha1': EXAMPLES_PER_VERSION.keda!,
    });
    expect(report.summary).toMatchObject({ refused: 0, pruned: 0, errors: 0, unsupported: 0 });
    expect(code).toBe(0);
  });

  it("every provider's HTTPRoute (to its Service, and to its pool) and InferencePool: accepted as sent by the Gateway API's and GAIE's own CRDs", async () => {
    const crds = [...readCrdFiles([join(dirname(resolveTool('traefik')!.path), GATEWAY_API_CRD_DIR, 'gateway.networking.k8s.io_httproutes.yaml')]), loadUpstreamCrd(ROOT, 'gaieInferencePools')];
    await installAndServe(kc, crds);
    try {
      const { code, report } = await conformance(['-n', kube.namespace, '--target', 'httproute', '--target', 'inferencepool', '--no-examples']);
      expect(problems(report.results)).toEqual([]);
      expect(report.targets.map((t) => [t.target, t.status, t.checked])).toEqual([
        ['httproute', 'checked', ['gateway.networking.k8s.io/v1']],
        ['inferencepool', 'checked', ['inference.networking.k8s.io/v1']],
      ]);
      // Each golden input: a route to the Service and one to the pool, and the pool.
      const goldens = goldenInputs().length;
      expect(countBy(report.results)).toEqual({ 'httproute gateway.networking.k8s.io/v1': 2 * goldens, 'inferencepool inference.networking.k8s.io/v1': goldens });
      expect(code).toBe(0);
    } finally {
      // The shared stack's later files expect a cluster without the Gateway API.
      const objects = new CustomObjects(kc);
      for (const crd of crds) await objects.remove({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', name: crd.metadata!.name! });
    }
  });

  it('Dynamo v1beta1 (upstream storage version): every object accepted as sent', async () => {
    await installAndServe(kc, [dynamoCrd(ROOT, ['v1beta1'], 'v1beta1')]);
    const { code, report } = await conformance(['-n', kube.namespace, '--target', 'dynamo']);

    expect(problems(report.results)).toEqual([]);
    expect(report.targets.map((t) => [t.target, t.status, t.served, t.checked])).toEqual([['dynamo', 'checked', ['v1beta1'], ['nvidia.com/v1beta1']]]);
    expect(countBy(report.results)).toEqual({ 'dynamo nvidia.com/v1beta1': goldensOf('dynamo') + EXAMPLES_PER_VERSION.dynamo! });
    expect(code).toBe(0);
  });

  it('reports what a store in another version loses as pruned, and exits 1', async () => {
    // Both versions served, v1beta1 stored, no webhook to convert: v1alpha1's `services` map does not
    // survive the v1beta1 schema. The same objects were accepted above when their own version was stored.
    await installAndServe(kc, [dynamoCrd(ROOT, ['v1alpha1', 'v1beta1'], 'v1beta1')]);
    const { code, report } = await conformance(['-n', kube.namespace, '--target', 'dynamo', '--no-examples']);

    const v1alpha1 = report.results.filter((r) => r.apiVersion === 'nvidia.com/v1alpha1');
    expect(v1alpha1).toHaveLength(goldensOf('dynamo'));
    for (const r of v1alpha1) {
      expect(r.outcome).toBe('pruned');
      expect(r.losses?.map((l) => l.path)).toContain('spec.services');
    }
    expect(problems(report.results.filter((r) => r.apiVersion === 'nvidia.com/v1beta1'))).toEqual([]);
    expect(code).toBe(1);
  });

  it('reports a field the schema does not declare as refused, with the API server message', async () => {
    const rest = new KubeRest(kc);
    // A Workspace has no `spec` (resource and inference sit at the root): strict decoding refuses it.
    const workspace = { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', metadata: { name: 'with-spec' }, resource: { labelSelector: {} }, spec: { x: 1 } };
    const result = await dryRunCase(rest, { target: 'kaito', apiVersion: 'kaito.sh/v1beta1', source: 'test', object: workspace }, 'workspaces', kube.namespace, 'test');
    expect(result.outcome).toBe('refused');
    expect(result.message).toContain('unknown field "spec"');
  });

  it('a name already taken on the cluster is checked under a generated name, not counted as refused', async () => {
    const rest = new KubeRest(kc);
    const workspace = { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', metadata: { name: 'taken', namespace: kube.namespace }, resource: { labelSelector: { matchLabels: { a: 'b' } } } };
    await rest.request('POST', `/apis/kaito.sh/v1beta1/namespaces/${kube.namespace}/workspaces`, { body: workspace });
    const result = await dryRunCase(rest, { target: 'kaito', apiVersion: 'kaito.sh/v1beta1', source: 'test', object: workspace }, 'workspaces', kube.namespace, 'test');
    expect(result).toMatchObject({ outcome: 'accepted', name: 'taken' });
  });

  it('a CRD that is not installed is skipped, not failed', async () => {
    const target = { name: 'nothing', resource: { group: 'nothing.example.com', kind: 'Nothing', plural: 'nothings', versions: ['v1'] } };
    expect(await discoverTarget(new KubeRest(kc), target, 'test')).toEqual({
      target: 'nothing',
      resource: 'nothings.nothing.example.com',
      status: 'skipped',
      served: [],
      checked: [],
      reason: 'CRD nothings.nothing.example.com is not installed',
    });
  });

  it('a namespace that does not exist is a clear error', async () => {
    let stderr = '';
    const io: CliIO = { ...processIO(), stdout: () => undefined, stderr: (s) => void (stderr += s) };
    const code = await runCli(['conformance', '--kubeconfig', stackInfo().kubeconfigPath, '-n', 'no-such-namespace', '--target', 'kaito', '--no-examples'], io, [conformanceCommand]);
    expect(code).toBe(1);
    expect(stderr).toContain('Namespace no-such-namespace does not exist');
  });
});

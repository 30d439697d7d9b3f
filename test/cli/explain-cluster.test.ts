// `kubeairunway explain --cluster`: selection with the cluster's InferenceProviderConfigs (a provider
// registered only there, its readiness as reported, its failing rules) instead of the built-in ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { PROVIDER_CONFIGS } from '../../api/constants.ts';
import { kubeNow } from '../../kube/time.ts';
import { explainCommand } from '../../cli/commands/explain.ts';
import { manifest, runCommands } from '../../cli/testing/run.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { kubeConfig, stackInfo, uniqueName } from '../support/env.ts';

const objects = () => new CustomObjects(kubeConfig());
const explain = (argv: string[], files: Record<string, string>) => runCommands(['explain', ...argv], [explainCommand], { files });

describe('kubeairunway explain --cluster', () => {
  const provider = uniqueName('clustered');
  const idle = uniqueName('idle');
  const model = `clustered/${uniqueName('m')}`;
  const config = (name: string, rules: { condition: string; priority: number }[]) =>
    ({
      apiVersion: API_VERSION,
      kind: PROVIDER_CONFIG_KIND,
      metadata: { name },
      spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true }, selectionRules: rules },
    }) as AnyObject;
  const files = { 'md.yaml': manifest('md', { model: { id: model }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }) };

  beforeAll(async () => {
    const ref = { ...PROVIDER_CONFIGS, name: provider };
    await objects().apply(ref, config(provider, [
      { condition: `spec.model.id == '${model}' && 1 / 0 == 1`, priority: 9000 },
      { condition: `spec.model.id == '${model}'`, priority: 8000 },
    ]), 'cli-test');
    await objects().mergePatchStatus(ref, { status: { ready: true, lastHeartbeat: kubeNow() } });
    // Registered but never reported ready: the controller would not select it, nor does explain.
    await objects().apply({ ...PROVIDER_CONFIGS, name: idle }, config(idle, [{ condition: 'true', priority: 10_000 }]), 'cli-test');
  });
  afterAll(async () => {
    await objects().delete({ ...PROVIDER_CONFIGS, name: provider });
    await objects().delete({ ...PROVIDER_CONFIGS, name: idle });
  });

  it("selects with the cluster's configs, their readiness and their failing rules", async () => {
    const result = await explain(['-f', 'md.yaml', '--cluster', '--kubeconfig', stackInfo().kubeconfigPath], files);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Provider configs from the cluster at https://\\S+: .*\\b${provider}\\b`));
    expect(lines).toContain(`  selected: ${provider} (matched capabilities: engine=vllm, gpu=true, mode=aggregated)`);
    expect(lines).toContain(`    ${idle}: not ready (status.ready is not true)`);
    expect(lines).toContain(`    ${provider}: rule 1 (spec.model.id == '${model}' && 1 / 0 == 1) failed: division by zero`);
    // Its implementation is not built in: selection is the cluster's, the compatibility check unknown.
    expect(lines).toContain('  compatibility: unknown (no built-in implementation of this provider)');
  });

  it('without --cluster the same file is explained with the built-in configs only', async () => {
    const result = await explain(['-f', 'md.yaml'], files);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(provider);
    expect(result.stdout).toContain('  selected: dynamo (');
  });
});

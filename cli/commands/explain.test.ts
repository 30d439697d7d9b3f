import { describe, expect, it } from 'vitest';
import { manifest, providerConfig, run } from '../testing/run.ts';

const GPU = { model: { id: 'org/model' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } };

describe('kubeairunway explain', () => {
  it('Example 1: auto-selected, with the reason of every other provider', async () => {
    const result = await run(['explain', '-f', 'examples/gpu-vllm-dynamo.yaml']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('examples/gpu-vllm-dynamo.yaml: ModelDeployment default/llama-8b');
    expect(lines).toContain('  spec: valid');
    expect(lines).toContain('  selected: dynamo (matched capabilities: engine=vllm, gpu=true, mode=aggregated)');
    expect(lines).toContain('  compatibility: compatible');
    expect(lines).toContain('  not selected:');
    expect(lines.filter((l) => /^ {4}(kaito|kuberay): ./.test(l))).toHaveLength(2);
  });

  it('Example 2: CPU goes to KAITO', async () => {
    const result = await run(['explain', '-f', 'examples/cpu-gguf-kaito.yaml']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  selected: kaito (matched capabilities: engine=llamacpp, gpu=false, mode=aggregated)\n');
    expect(result.stdout).toContain('    dynamo: engine llamacpp not supported');
  });

  it('Example 3: explicit selection; the others are not considered', async () => {
    const result = await run(['explain', '-f', 'examples/disaggregated-dynamo.yaml']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  selected: dynamo (explicit provider selection)\n');
    expect(result.stdout).toContain("    kaito: not considered: spec.provider.name is 'dynamo'\n");
    expect(result.stdout).toContain("    kuberay: not considered: spec.provider.name is 'dynamo'\n");
  });

  it('json output', async () => {
    const result = await run(['explain', '-f', 'examples/cpu-llamacpp-minimal.yaml', '-o', 'json']);
    const [explanation] = JSON.parse(result.stdout);
    expect(explanation).toMatchObject({
      source: 'examples/cpu-llamacpp-minimal.yaml',
      object: 'ModelDeployment default/qwen-cpu',
      valid: true,
      selected: { name: 'kaito', reason: 'matched capabilities: engine=llamacpp, gpu=false, mode=aggregated' },
      selectionError: null,
      compatibility: { compatible: true },
      deployable: true,
    });
    expect(explanation.notSelected.map((r: { name: string }) => r.name)).toEqual(['deployment', 'dynamo', 'kuberay']);
  });

  it('an explicitly named provider that rejects the spec exits 1', async () => {
    const spec = { ...GPU, engine: { type: 'sglang' }, provider: { name: 'kaito' } };
    const result = await run(['explain', '-f', 'md.yaml'], { 'md.yaml': manifest('md', spec) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  compatibility: incompatible\n    error   KAITO does not support sglang engine\n');
  });

  it('an invalid spec shows its errors and exits 1', async () => {
    const result = await run(['explain', '-f', 'md.yaml'], { 'md.yaml': manifest('md', { ...GPU, resources: { gpu: { count: 0 } } }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  spec: invalid (1 error, 0 warnings)\n    error   spec.resources.gpu.count: vLLM engine requires GPU (set resources.gpu.count > 0)\n');
    // The controller stops at validation: no selection, no compatibility check; what it would pick once fixed.
    expect(result.stdout).toMatch(/\n {2}selected: none \(the controller selects a provider only for a valid spec; once it is valid: \w+ \(.*\)\)\n/);
    expect(result.stdout).not.toContain('compatibility:');
    const json = await run(['explain', '-f', 'md.yaml', '-o', 'json'], { 'md.yaml': manifest('md', { ...GPU, resources: { gpu: { count: 0 } } }) });
    expect(JSON.parse(json.stdout)).toMatchObject([{ valid: false, selected: null, compatibility: null, selectedOnceValid: { name: expect.any(String) } }]);
  });

  it('a provider that is down, from --provider-config', async () => {
    const files = { 'md.yaml': manifest('md', GPU), 'down.yaml': providerConfig('dynamo', {}, { ready: false }) };
    const result = await run(['explain', '-f', 'md.yaml', '--provider-config', 'down.yaml'], files);
    expect(result.stdout).toContain('    dynamo: not ready (status.ready is not true)\n');
    expect(result.stdout).not.toContain('selected: dynamo');
  });

  it('a third-party provider wins with its own rule', async () => {
    const config = providerConfig('acme', {
      capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true },
      selectionRules: [{ condition: "spec.model.id.startsWith('org/')", priority: 1000 }],
    });
    const result = await run(['explain', '-f', 'md.yaml', '--provider-config', 'acme.yaml'], { 'md.yaml': manifest('md', GPU), 'acme.yaml': config });
    expect(result.stdout).toContain('  selected: acme (matched capabilities: engine=vllm, gpu=true, mode=aggregated)\n');
    expect(result.stdout).toContain('  compatibility: unknown (no built-in implementation of this provider)\n');
    expect(result.stdout).toMatch(/ {4}dynamo: priority \d+ is lower than acme's 1000\n/);
  });

  it('lists every selection rule that failed, also those of the provider that won through another rule', async () => {
    const config = providerConfig('acme', {
      capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true },
      selectionRules: [
        { condition: 'spec.scaling.prefill.replicas > 1', priority: 2000 },
        { condition: 'true', priority: 1000 },
      ],
    });
    const result = await run(['explain', '-f', 'md.yaml', '--provider-config', 'acme.yaml'], { 'md.yaml': manifest('md', GPU), 'acme.yaml': config });
    expect(result.stdout).toContain('  selected: acme (matched capabilities: engine=vllm, gpu=true, mode=aggregated)\n');
    expect(result.stdout).toContain('  rule errors (each counts as not matching):\n    acme: rule 1 (spec.scaling.prefill.replicas > 1) failed: No such key: prefill\n');
    const json = await run(['explain', '-f', 'md.yaml', '--provider-config', 'acme.yaml', '-o', 'json'], { 'md.yaml': manifest('md', GPU), 'acme.yaml': config });
    expect(JSON.parse(json.stdout)[0].ruleErrors).toEqual(['acme: rule 1 (spec.scaling.prefill.replicas > 1) failed: No such key: prefill']);
  });

  it('is offline unless --cluster is given: --kubeconfig alone is a mistake, said so', async () => {
    const result = await run(['explain', '-f', 'examples/gpu-vllm-dynamo.yaml', '--kubeconfig', '/nonexistent']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: --kubeconfig and --context need --cluster: explain is offline by default.\n');
  });

  it('--cluster with a kubeconfig that cannot be loaded says which', async () => {
    const result = await run(['explain', '-f', 'examples/gpu-vllm-dynamo.yaml', '--cluster', '--kubeconfig', '/nonexistent/kubeconfig']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Cannot load the kubeconfig \/nonexistent\/kubeconfig: /);
  });

  it('no provider matches', async () => {
    const spec = { model: { id: 'a/b' }, engine: { type: 'sglang' }, resources: { gpu: { count: 1 } } };
    const only = (name: string) => providerConfig(name, {}, { ready: false });
    const files = { 'md.yaml': manifest('md', spec), 'd.yaml': only('dynamo') };
    const result = await run(['explain', '-f', 'md.yaml', '--provider-config', 'd.yaml'], files);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  selected: none (No compatible provider found for engine=sglang, gpu=true, mode=aggregated)\n');
  });
});

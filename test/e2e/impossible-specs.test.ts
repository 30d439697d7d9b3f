// Specs that cannot work, answered on the real stack (issue 26): `kubectl apply` refuses a replica count
// of 1,000,000 (the CRD's bound) and a disaggregated deployment with no prefill workers (a CEL rule, the
// webhook's words too); it admits 500 replicas and an engine.args key that is not a flag with a
// warning; the controller then says the same in the Validated condition and a SpecWarning event; and
// `kar validate` gives the same answers offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import { run } from '../../cli/testing/run.ts';
import { disaggregatedSpec } from '../../api/seed-examples.ts';
import { validSpec } from '../../webhook/testing/seed-cases.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { condition, eventsFor, phaseIs, waitForDeployment } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { kubectlApply, manifest, startTestWebhook, untilEffective, type TestWebhook } from '../webhook/support.ts';

const REPLICAS_500 = ValidationMessage.replicasBeyondUsual('spec.scaling.replicas', 500, 100);
const BAD_KEY = ValidationMessage.engineArgKeyInvalid('max num seqs');

describe('specs that cannot work', () => {
  let kube: TestKube;
  let webhook: TestWebhook;
  let ctl: TestController;

  beforeAll(async () => {
    kube = await testKube('impossible');
    webhook = await startTestWebhook(kube.kc, kube.namespace);
    await untilEffective(kube.kc, kube.namespace);
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await webhook?.cleanup();
    await kube?.cleanup();
  });

  const withReplicas = (replicas: number): ModelDeploymentSpec => ({ ...validSpec(), scaling: { replicas } });
  const noPrefill = (): ModelDeploymentSpec => {
    const spec = disaggregatedSpec();
    return { ...spec, scaling: { ...spec.scaling, prefill: { ...spec.scaling!.prefill!, replicas: 0 }, decode: { ...spec.scaling!.decode!, replicas: 2 } } };
  };
  // KAITO (CPU, llama.cpp) needs an image; the one of examples/cpu-gguf-kaito.yaml.
  const badArgs = (): ModelDeploymentSpec => ({ ...validSpec(), image: 'ghcr.io/sozercan/llama-cpp-runner:latest', engine: { ...validSpec().engine, args: { 'max num seqs': '8', 'ctx-size': '4096' } } });

  it('kubectl apply refuses 1,000,000 replicas, naming the field and the bound', async () => {
    const res = await kubectlApply(manifest(kube.namespace, uniqueName('million'), withReplicas(1_000_000)));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/spec\.scaling\.replicas/);
    expect(res.stderr).toMatch(/10000/);
  });

  it('kubectl apply refuses a disaggregated deployment with no prefill workers beside two decode workers', async () => {
    const res = await kubectlApply(manifest(kube.namespace, uniqueName('noprefill'), noPrefill()));
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().endsWith(ValidationMessage.disaggregatedNoPrefillWorkers)).toBe(true);
  });

  it('admits 500 replicas with a warning at apply, and the controller says it in the Validated condition', async () => {
    const name = uniqueName('many');
    const res = await kubectlApply(manifest(kube.namespace, name, withReplicas(500)));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`Warning: ${REPLICAS_500}`);
    const md = await waitForDeployment(kube.namespace, name, 'validated', (m) => condition(m, 'Validated')?.status === 'True');
    expect(condition(md, 'Validated')?.message).toBe(`Spec validation passed with warnings: ${REPLICAS_500}`);
  });

  it('admits an engine.args key that is not a flag with a warning, and reports it as condition and event', async () => {
    const name = uniqueName('badargs');
    const res = await kubectlApply(manifest(kube.namespace, name, badArgs()));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`Warning: ${BAD_KEY}`);
    const md = await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'));
    expect(condition(md, 'Validated')?.message).toBe(`Spec validation passed with warnings: ${BAD_KEY}`);
    const events = await eventually('the SpecWarning event', async () => (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'SpecWarning'), 30_000);
    expect(events).toMatchObject({ type: 'Warning', message: `Spec admitted with warnings: ${BAD_KEY}` });
  });

  it('kar validate gives the same answers offline', async () => {
    const files = {
      'million.yaml': JSON.stringify(manifest('default', 'million', withReplicas(1_000_000))),
      'noprefill.yaml': JSON.stringify(manifest('default', 'noprefill', noPrefill())),
      'many.yaml': JSON.stringify(manifest('default', 'many', withReplicas(500))),
      'badargs.yaml': JSON.stringify(manifest('default', 'badargs', badArgs())),
    };
    const result = await run(['validate', '-f', 'million.yaml', '-f', 'noprefill.yaml', '-f', 'many.yaml', '-f', 'badargs.yaml'], files);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('spec.scaling.replicas must be at most 10000, got 1000000');
    expect(result.stdout).toContain(ValidationMessage.disaggregatedNoPrefillWorkers);
    expect(result.stdout).toContain(REPLICAS_500);
    expect(result.stdout).toContain(BAD_KEY);
  });
});

// A selection rule that fails at selection time (division by zero, a missing key) counts as not
// matching, and is reported: a ProviderRuleError event on the deployment naming provider, rule and
// error, the provider in the selection's reasons, and the RulesValid condition on the provider config.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import type { Condition } from '../../api/types.ts';
import { PROVIDER_CONFIGS } from '../../api/constants.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { builtinProviders } from '../../providers/index.ts';
import { createDeployment, eventsFor, example, waitForDeployment } from '../support/deployments.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

const objects = () => new CustomObjects(kubeConfig());

describe('selection rules that fail at selection time', () => {
  let kube: TestKube;
  let ctl: TestController;
  let heartbeat: NodeJS.Timeout | undefined;
  const provider = uniqueName('ruly');
  const ref = { ...PROVIDER_CONFIGS, name: provider };
  // The rules fail only for this test's model: other tests' deployments see them evaluate to false.
  const model = `ruly/${uniqueName('model')}`;
  const divide = `spec.model.id == '${model}' && 1 / 0 == 1`;
  const missing = `spec.model.id == '${model}' && spec.scaling.prefill.replicas > 1`;

  beforeAll(async () => {
    kube = await testKube('e2e-rules');
    ctl = await startTestController({ namespaces: [kube.namespace], providers: builtinProviders });
    const config = {
      apiVersion: API_VERSION,
      kind: PROVIDER_CONFIG_KIND,
      metadata: { name: provider },
      spec: {
        capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true, cpuSupport: false },
        selectionRules: [
          { condition: divide, priority: 5000 },
          { condition: missing, priority: 5000 },
        ],
      },
    };
    await objects().apply(ref, config as AnyObject, 'e2e-test');
    // Ready as a registered provider would be; kept so, since another test may mark every provider not ready.
    const markReady = () => objects().mergePatchStatus(ref, { status: { ready: true, upstreamCRDVersion: 'example.com/v1' } });
    await markReady();
    heartbeat = setInterval(() => void markReady().catch(() => undefined), 1_000);
  });
  afterAll(async () => {
    clearInterval(heartbeat);
    await ctl?.stop();
    await kube?.cleanup();
    await objects().delete(ref);
  });

  it('count as not matching; the deployment gets a ProviderRuleError event per rule, the config a RulesValid=False condition', async () => {
    const name = uniqueName('rules');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.model = { id: model };
    }));
    const md = await waitForDeployment(kube.namespace, name, 'a provider selected', (m) => Boolean(m.status?.provider?.name));
    // The broken provider's rules carried the highest priority, yet it was not chosen.
    expect(md.status?.provider?.name).toBe('dynamo');

    const expected = [
      `Provider '${provider}' selection rule 1 (${divide}) failed: division by zero; counted as not matching`,
      `Provider '${provider}' selection rule 2 (${missing}) failed: No such key: prefill; counted as not matching`,
    ];
    const events = await eventually('the ProviderRuleError events', async () => {
      const found = (await eventsFor(kube.namespace, name)).filter((e) => e.reason === 'ProviderRuleError');
      return found.length >= expected.length ? found : undefined;
    }, 30_000);
    expect(events.map((e) => e.type)).toEqual(['Warning', 'Warning']);
    expect(events.map((e) => e.message).sort()).toEqual(expected.sort());

    const rulesValid = await eventually('the RulesValid condition on the provider config', async () => {
      const config = await objects().get(ref);
      return ((config?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'RulesValid');
    }, 30_000);
    expect(rulesValid).toMatchObject({
      status: 'False',
      reason: 'RuleEvaluationFailed',
      message: `rule 1 (${divide}) failed: division by zero; rule 2 (${missing}) failed: No such key: prefill; a failing rule counts as not matching`,
      observedGeneration: 1,
    });

    // The condition is the core's own field: the heartbeat's status writes (another field manager) keep it.
    const config = await objects().get(ref);
    const managers = (config?.metadata as { managedFields?: { manager: string; subresource?: string; fieldsV1?: unknown }[] }).managedFields ?? [];
    const core = managers.find((m) => m.manager === 'kubeairunway-controller' && m.subresource === 'status');
    expect(JSON.stringify(core?.fieldsV1)).toContain('"k:{\\"type\\":\\"RulesValid\\"}"');
  });
});

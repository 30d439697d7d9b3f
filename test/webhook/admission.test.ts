// The admission webhook on the real API server: what `kubectl apply` prints for the seed's invalid
// examples and warnings, defaults as a JSON patch, provider checks from InferenceProviderConfigs, and
// that deletes, finalizer removals and status writes never depend on the webhook.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { MUTATE_PATH, VALIDATE_PATH } from '../../webhook/registration.ts';
import { identityChangeWarning, providerCrdWaitWarning } from '../../webhook/review.ts';
import { providerNotInstalled, SERVED_NAME_WARNING, seedCases, servedNameWithCustomSource, validSpec } from '../../webhook/testing/seed-cases.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import {
  DENIED_BY,
  dryRunCreate,
  kubectl,
  kubectlApply,
  manifest,
  mdRef,
  PROVIDER_CONFIG_DENIED_BY,
  PROVIDER_CONFIG_TEST_LABEL,
  removeFinalizers,
  startTestWebhook,
  untilEffective,
  type TestWebhook,
} from './support.ts';

const HOLD = 'test.kubeairunway.ai/hold';

describe('admission webhook, up', () => {
  let kube: TestKube;
  let webhook: TestWebhook;
  let objects: CustomObjects;
  const ipcName = uniqueName('wh-provider');

  beforeAll(async () => {
    kube = await testKube('webhook');
    objects = new CustomObjects(kube.kc);
    webhook = await startTestWebhook(kube.kc, kube.namespace, { persistDerivedFields: true });
    await untilEffective(kube.kc, kube.namespace);
  });

  afterAll(async () => {
    await webhook?.cleanup();
    await objects?.delete({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: ipcName }).catch(() => undefined);
    await kube?.cleanup();
  });

  it.each(seedCases().map((c) => [c.rule, c] as const))('kubectl apply of "%s" fails with the seed message', async (_rule, c) => {
    const res = await kubectlApply(manifest(kube.namespace, uniqueName('bad'), c.spec));
    expect(res.code).not.toBe(0);
    // Whoever says no first, the last words are the seed's: the webhook ("admission webhook ... denied
    // the request: <message>"), or the CRD's CEL rules, which carry the same texts and run before
    // validating webhooks ("The ModelDeployment ... is invalid: <field>: Invalid value: ...: <message>").
    expect(res.stderr.trim().endsWith(c.message)).toBe(true);
  });

  it('admits a deployment whose provider CRD is not installed, warning with the seed message (reconcile then waits Pending: e2e/providers.test.ts)', async () => {
    // A provider that registered (its InferenceProviderConfig exists) but found no CRD to serve. A GitOps
    // sync applies CRDs and the objects that use them together: refusing here would fail the sync.
    const provider = uniqueName('nocrd');
    const ipcRef = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: provider };
    const ipc = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: provider }, spec: { capabilities: { engines: ['vllm'], gpuSupport: true } } };
    try {
      await objects.apply(ipcRef, ipc, 'webhook-test');
      await objects.applyStatus(ipcRef, { apiVersion: ipc.apiVersion, kind: ipc.kind, metadata: ipc.metadata, status: { upstreamCRDVersion: '' } }, 'webhook-test');
      const { spec, message } = providerNotInstalled(provider);
      const res = await eventually('the webhook to see the provider registered', async () => {
        const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(manifest(kube.namespace, uniqueName('waits'), spec)));
        return r.stderr.includes('CRD not installed') ? r : undefined;
      }, 20_000);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(`Warning: ${providerCrdWaitWarning(message)}`);
    } finally {
      await objects.delete(ipcRef).catch(() => undefined);
    }
  });

  it('denies a provider nobody registered, saying so', async () => {
    const provider = uniqueName('absent');
    const res = await kubectlApply(manifest(kube.namespace, uniqueName('bad'), providerNotInstalled(provider).spec));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(`${DENIED_BY}Provider '${provider}' is not registered: no InferenceProviderConfig named '${provider}' (registered: `);
  });

  it('servedName with a custom source is admitted with the seed warning', async () => {
    const res = await kubectlApply(manifest(kube.namespace, uniqueName('custom'), servedNameWithCustomSource()));
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`Warning: ${SERVED_NAME_WARNING}`);
  });

  it('applies the defaults as a JSON patch (servedName derived from model.id)', async () => {
    const name = uniqueName('defaults');
    const res = await kubectlApply(manifest(kube.namespace, name, { model: { id: 'org/Tiny-Model-1B' }, engine: { type: 'llamacpp' } }));
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const live = await objects.get(mdRef(kube.namespace, name));
    expect(live?.spec).toMatchObject({
      model: { id: 'org/Tiny-Model-1B', source: 'huggingface', servedName: 'Tiny-Model-1B' },
      serving: { mode: 'aggregated' },
      scaling: { replicas: 1 },
    });
    // The CRD's own defaults may have been applied before the webhook saw the object; the derived
    // servedName is the webhook's alone.
    expect(webhook.reviews.find((r) => r.name === name && r.patched.length > 0)?.patched).toContain('/spec/model/servedName');
  });

  it('warns about an identity change on update', async () => {
    const name = uniqueName('identity');
    expect((await kubectlApply(manifest(kube.namespace, name, validSpec()))).code).toBe(0);
    const res = await kubectlApply(manifest(kube.namespace, name, { ...validSpec(), model: { id: 'org/Other-Model' } }));
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`Warning: ${identityChangeWarning(['model.id'])}`);
  });

  it('reports provider capabilities from the InferenceProviderConfig as warnings', async () => {
    const ipcRef = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: ipcName };
    const ipc = {
      apiVersion: 'kubeairunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name: ipcName },
      spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], cpuSupport: false, gpuSupport: true } },
    };
    await objects.apply(ipcRef, ipc, 'webhook-test');
    await objects.applyStatus(ipcRef, { apiVersion: ipc.apiVersion, kind: ipc.kind, metadata: ipc.metadata, status: { upstreamCRDVersion: 'v1' } }, 'webhook-test');
    const spec = { ...validSpec(), provider: { name: ipcName } };
    const res = await eventually('the webhook to see the new InferenceProviderConfig', async () => {
      const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(manifest(kube.namespace, uniqueName('compat'), spec)));
      return r.code === 0 ? r : undefined;
    }, 20_000);
    expect(res.stderr).toContain(`Warning: Provider '${ipcName}' does not support llamacpp engine`);
    expect(res.stderr).toContain(`Warning: Provider '${ipcName}' requires GPU (set resources.gpu.count > 0)`);
  });

  it('checks overrides with the schema the provider publishes: wrong types denied, unknown keys warned with their path', async () => {
    const name = uniqueName('wh-overrides');
    const ipcRef = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name };
    const ipc = {
      apiVersion: 'kubeairunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name },
      spec: {
        capabilities: { engines: ['llamacpp'], servingModes: ['aggregated'], cpuSupport: true, gpuSupport: false },
        overrideSchema: { type: 'object', properties: { frontend: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } } } },
      },
    };
    try {
      await objects.apply(ipcRef, ipc, 'webhook-test');
      await objects.applyStatus(ipcRef, { apiVersion: ipc.apiVersion, kind: ipc.kind, metadata: ipc.metadata, status: { upstreamCRDVersion: 'v1' } }, 'webhook-test');
      const dryRun = (overrides: Record<string, unknown>) =>
        kubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(manifest(kube.namespace, uniqueName('ovr'), { ...validSpec(), provider: { name, overrides } })));

      // The webhook's cache may see the config before its status (the CRD version): until then the
      // denial is "CRD not installed", so wait for the one about the override.
      const denied = await eventually('the webhook to see the published override schema', async () => {
        const r = await dryRun({ frontend: { replicas: 'two' } });
        return r.code !== 0 && r.stderr.includes('overrides.frontend.replicas') ? r : undefined;
      }, 20_000);
      expect(denied.stderr.trim()).toMatch(new RegExp(`${escape(`${DENIED_BY}spec.provider.overrides.frontend.replicas must be an integer, got string`)}$`));

      const warned = await dryRun({ frontend: { replicsa: 2 } });
      expect(warned.code).toBe(0);
      expect(warned.stderr).toContain("Warning: Unknown override key 'spec.provider.overrides.frontend.replicsa' is ignored");
    } finally {
      await objects.delete(ipcRef).catch(() => undefined);
    }
  });

  it('an InferenceProviderConfig whose selection rule does not compile is rejected, naming the rule and the error', async () => {
    const name = uniqueName('wh-rules');
    const ipc = (conditions: string[]) => ({
      apiVersion: 'kubeairunway.ai/v1alpha1',
      kind: 'InferenceProviderConfig',
      metadata: { name, labels: { [PROVIDER_CONFIG_TEST_LABEL]: webhook.names.validating } },
      spec: { capabilities: { engines: ['vllm'], servingModes: ['aggregated'], gpuSupport: true }, selectionRules: conditions.map((condition) => ({ condition, priority: 10 })) },
    });
    const ipcRef = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name };
    try {
      const res = await kubectlApply(ipc(["spec.engine.type == 'vllm'", "spec.engine.type == 'vllm' &&"]));
      expect(res.code).not.toBe(0);
      expect(res.stderr.trim()).toMatch(
        new RegExp(`${escape(`${PROVIDER_CONFIG_DENIED_BY}spec.selectionRules[1].condition: rule 2 (spec.engine.type == 'vllm' &&) does not compile: `)}\\S.*$`),
      );
      expect(await objects.get(ipcRef)).toBeUndefined();

      // Rules that compile are admitted, also those that can only fail on some specs: selection reports those.
      const ok = await kubectlApply(ipc(["spec.engine.type == 'vllm'", 'spec.scaling.prefill.replicas > 1']));
      expect(ok.code).toBe(0);
      // An edit that breaks a stored rule is denied too, and the stored rules stay as they were.
      const edit = await kubectlApply(ipc(['spec.scaling.prefill.replicas >']));
      expect(edit.code).not.toBe(0);
      expect(edit.stderr).toContain(`${PROVIDER_CONFIG_DENIED_BY}spec.selectionRules[0].condition: rule 1 (spec.scaling.prefill.replicas >) does not compile: `);
      expect(((await objects.get(ipcRef))?.spec as { selectionRules: unknown[] }).selectionRules).toHaveLength(2);
    } finally {
      await objects.delete(ipcRef).catch(() => undefined);
    }
  });

  it('status writes, metadata edits, delete and finalizer removal never reach the webhook', async () => {
    const name = uniqueName('held');
    const ref = mdRef(kube.namespace, name);
    expect((await kubectlApply(manifest(kube.namespace, name, validSpec(), { finalizers: [HOLD] }))).code).toBe(0);
    const before = webhook.reviews.length;

    await objects.mergePatchStatus(ref, { status: { phase: 'Pending', message: 'waiting' } });
    await objects.mergePatch(ref, { metadata: { labels: { edited: 'yes' } } });
    const del = await kubectl(['delete', 'modeldeployment', name, '-n', kube.namespace, '--wait=false']);
    expect(del.code).toBe(0);
    const deleting = await objects.get(ref);
    expect(deleting?.metadata?.deletionTimestamp).toBeTruthy();
    await removeFinalizers(kube.kc, ref);
    await eventually('the ModelDeployment to be gone', async () => (await objects.get(ref)) === undefined);

    // None of these went to the webhook: the rules and the match condition keep them away.
    expect(webhook.reviews.slice(before).filter((r) => r.name === name)).toEqual([]);
  });
});

describe('admission webhook, down (failurePolicy Ignore)', () => {
  let kube: TestKube;
  let webhook: TestWebhook;
  let objects: CustomObjects;

  beforeAll(async () => {
    kube = await testKube('webhook-down');
    objects = new CustomObjects(kube.kc);
    webhook = await startTestWebhook(kube.kc, kube.namespace);
    await untilEffective(kube.kc, kube.namespace);
  });

  afterAll(async () => {
    await webhook?.cleanup();
    await kube?.cleanup();
  });

  it('an object the webhook denies is admitted while it is down, and deleting it works either way', async () => {
    const provider = uniqueName('absent');
    const { spec, message } = providerNotInstalled(provider);
    const name = uniqueName('admitted');
    const ref = mdRef(kube.namespace, name);
    const obj = manifest(kube.namespace, name, spec, { finalizers: [HOLD] });

    expect(await dryRunCreate(kube.kc, obj)).toContain(`${DENIED_BY}Provider '${provider}' is not registered`);

    await webhook.stop();
    const res = await kubectlApply(obj);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect((await objects.get(ref))?.spec).toMatchObject({ provider: { name: provider } });

    // Down: status write, metadata edit, delete and finalizer removal all go through.
    await objects.mergePatchStatus(ref, { status: { phase: 'Pending', message } });
    expect((await kubectl(['delete', 'modeldeployment', name, '-n', kube.namespace, '--wait=false'])).code).toBe(0);
    await removeFinalizers(kube.kc, ref);
    await eventually('the ModelDeployment to be gone', async () => (await objects.get(ref)) === undefined);
  });

  it('with the webhook back up, an invalid object stored meanwhile can still be deleted and unfinalized', async () => {
    const provider = uniqueName('absent');
    const { spec } = providerNotInstalled(provider);
    const name = uniqueName('stored-invalid');
    const ref = mdRef(kube.namespace, name);
    await webhook.stop();
    expect((await kubectlApply(manifest(kube.namespace, name, spec, { finalizers: [HOLD] }))).code).toBe(0);

    const again = await startTestWebhook(kube.kc, kube.namespace, { secretName: webhook.secretName });
    try {
      await untilEffective(kube.kc, kube.namespace);
      // A spec change of the invalid object is now denied...
      const edit = await kubectlApply(manifest(kube.namespace, name, { ...spec, image: 'registry.example/x:2' }, { finalizers: [HOLD] }));
      expect(edit.code).not.toBe(0);
      expect(edit.stderr).toContain(DENIED_BY);
      // ...but status, labels, delete and finalizer removal are not the webhook's business.
      await objects.mergePatchStatus(ref, { status: { phase: 'Pending', message: 'still invalid' } });
      await objects.mergePatch(ref, { metadata: { labels: { touched: 'yes' } } });
      expect((await kubectl(['delete', 'modeldeployment', name, '-n', kube.namespace, '--wait=false'])).code).toBe(0);
      await removeFinalizers(kube.kc, ref);
      await eventually('the ModelDeployment to be gone', async () => (await objects.get(ref)) === undefined);
      // The one spec edit is all the webhook saw of this object.
      expect(again.reviews.filter((r) => r.name === name).map((r) => [r.path, r.operation, r.allowed])).toEqual([
        [MUTATE_PATH, 'UPDATE', true],
        [VALIDATE_PATH, 'UPDATE', false],
      ]);
    } finally {
      await again.cleanup();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Deployments that cannot proceed say why in status, in the seed's words, and never hang silently:
// invalid spec at reconcile time (no webhook), selector disabled, no healthy provider, a provider
// that has no worker serving its task queue, and a switch away from such a provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { PROVIDER_CONFIGS } from '../../api/constants.ts';
import { condition, createDeployment, deleteDeployment, eventsFor, example, patchDeployment, waitForDeployment, waitGone } from '../support/deployments.ts';
import { kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { registerWorkerlessProvider } from '../support/workerless-provider.ts';

const objects = () => new CustomObjects(kubeConfig());

async function markAllProvidersNotReady(): Promise<void> {
  for (const ipc of await objects().list(PROVIDER_CONFIGS)) {
    await objects().mergePatchStatus({ ...PROVIDER_CONFIGS, name: ipc.metadata!.name! }, { status: { ready: false } });
  }
}

describe('waiting with a reason (selector enabled, no provider workers)', () => {
  let kube: TestKube;
  let ctl: TestController;
  const ghost = uniqueName('ghost');
  let ghostConfig: Awaited<ReturnType<typeof registerWorkerlessProvider>> | undefined;
  beforeAll(async () => {
    kube = await testKube('e2e-wait');
    await markAllProvidersNotReady();
    ctl = await startTestController({ namespaces: [kube.namespace], providers: [] });
    // A provider that registered (CRD installed, ready) but whose worker is not running.
    ghostConfig = await registerWorkerlessProvider(ghost, { ready: false, upstreamCRDVersion: 'kaito.sh/v1beta1' });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
    await ghostConfig?.remove();
  });

  it('reports an invalid spec found at reconcile time as Pending with Validated=False', async () => {
    const name = uniqueName('invalid');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: 'nonexistent' };
    }));
    const md = await waitForDeployment(kube.namespace, name, 'validation failure', (m) => condition(m, 'Validated')?.status === 'False');
    expect(md.status?.phase).toBe('Pending');
    // No InferenceProviderConfig of that name: not a missing CRD but a provider nobody registered.
    expect(md.status?.message).toMatch(/^Provider 'nonexistent' is not registered: no InferenceProviderConfig named 'nonexistent' \(registered: [^)]*\)$/);
    expect(condition(md, 'Validated')?.message).toBe(md.status?.message);
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
  });

  it('says no healthy provider is available', async () => {
    const name = uniqueName('nohealthy');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = name)));
    const md = await waitForDeployment(kube.namespace, name, 'no provider', (m) => condition(m, 'ProviderSelected')?.status === 'False');
    expect(md.status?.phase).toBe('Pending');
    expect(md.status?.message).toBe('No healthy providers available');
    expect(condition(md, 'Validated')?.status).toBe('True');
  });

  it('shows a provider with no worker as unavailable instead of hanging', async () => {
    const name = uniqueName('noworker');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: ghost };
    }));
    const md = await waitForDeployment(kube.namespace, name, 'provider unavailable', (m) => m.status?.message?.includes('not available') ?? false, 60_000);
    expect(md.status?.phase).toBe('Pending');
    expect(md.status?.message).toBe(`Provider '${ghost}' is not available: no worker is serving its task queue`);
    expect(md.status?.provider?.name).toBe(ghost);
  });
});

describe('provider selector disabled', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-nosel');
    ctl = await startTestController({ namespaces: [kube.namespace], settings: { providerSelectorEnabled: false } });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('leaves a deployment without an explicit provider Pending with the seed message', async () => {
    const name = uniqueName('nosel');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = name)));
    const md = await waitForDeployment(kube.namespace, name, 'selector disabled', (m) => condition(m, 'ProviderSelected')?.status === 'False');
    expect(md.status?.message).toBe('No provider specified and provider-selector not installed');
    expect(md.status?.phase).toBe('Pending');
  });

  it('still deploys a deployment that names its provider', async () => {
    const name = uniqueName('explicit');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: 'dynamo' };
    }));
    const md = await waitForDeployment(kube.namespace, name, 'Running', (m) => m.status?.phase === 'Running');
    expect(md.status?.provider?.selectedReason).toBe('explicit provider selection');
    expect(condition(md, 'ProviderSelected')?.reason).toBe('ExplicitSelection');
  });
});

describe('a provider switch is bounded by the cleanup deadline', () => {
  let kube: TestKube;
  let ctl: TestController;
  const gone = uniqueName('gone');
  let goneConfig: Awaited<ReturnType<typeof registerWorkerlessProvider>> | undefined;
  beforeAll(async () => {
    kube = await testKube('e2e-switch');
    ctl = await startTestController({ namespaces: [kube.namespace] });
    // A provider that registered (ready, CRD reported) but whose worker is gone: it can never clean up.
    goneConfig = await registerWorkerlessProvider(gone, { ready: true, upstreamCRDVersion: 'kaito.sh/v1beta1' });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
    await goneConfig?.remove();
  });

  it('moves to the new provider after the deadline, with a ProviderSwitchTimeout event naming what may be left', async () => {
    const name = uniqueName('switch');
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      m.spec.provider = { name: gone };
    }));
    await waitForDeployment(kube.namespace, name, 'provider unavailable', (m) => m.status?.message?.includes('not available') ?? false, 60_000);
    await patchDeployment(kube.namespace, name, { spec: { provider: { name: 'dynamo' } } });
    // TEST_SETTINGS: cleanup deadline 20 s; the old provider's queue has no worker, so nothing else can end the wait.
    const md = await waitForDeployment(kube.namespace, name, 'Running on dynamo', (m) => m.status?.phase === 'Running' && m.status.provider?.name === 'dynamo', 90_000);
    expect(condition(md, 'ProviderSelected')?.reason).toBe('ExplicitSelection');
    const timeout = (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'ProviderSwitchTimeout');
    expect(timeout?.type).toBe('Warning');
    expect(timeout?.message).toBe(`Provider '${gone}' did not remove its resources within 20s; switching to 'dynamo' anyway, these may be orphaned: resources of provider '${gone}'`);
  });
});

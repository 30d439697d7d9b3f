// `controller install|upgrade|uninstall` and `provider install|uninstall`: kubectl over deploy/, checked
// with server-side dry runs (the shared cluster must keep its CRDs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, MODEL_DEPLOYMENT_KIND, NODE_NAMESPACE, SYSTEM_NAMESPACE } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { kubectlAvailable } from '../../deploy/render.ts';
import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import { createDeployment, patchDeployment } from '../support/deployments.ts';
import { testKube, type TestKube } from '../support/env.ts';
import { checkpointExample, createCheckpoint } from '../support/kybernate.ts';
import { kubeairunway } from './cli.ts';

const REFUSAL = /^error: (\d+) (?:ModelDeployments?|objects? of ours) still exist \(.+\): delete them first so the controller cleans up (?:their provider resources|what they made \(provider resources, queues, checkpoint images\)), or pass --force\.\n$/;

describe.skipIf(!kubectlAvailable())('kubeairunway controller and provider', () => {
  let kube: TestKube;
  // A server dry run stores nothing, so the objects of kubeairunway-system need the namespace for real.
  let createdSystemNamespace = false;
  // As an overlay with components/kybernate-node leaves it: the uninstall removes it too.
  let createdNodeNamespace = false;
  const create = (name: string) => kube.core.createNamespace({ body: { metadata: { name } } }).then(() => true, () => false);
  beforeAll(async () => {
    kube = await testKube('cli-install');
    createdSystemNamespace = await create(SYSTEM_NAMESPACE);
    createdNodeNamespace = await create(NODE_NAMESPACE);
  });
  afterAll(async () => {
    await patchDeployment(kube.namespace, 'leftover', { metadata: { finalizers: null } }).catch(() => undefined);
    // Applied again without its finalizer, by the same field manager: the finalizer goes.
    await createCheckpoint(checkpointExample(kube.namespace, 'held', 'no-such-pod')).catch(() => undefined);
    if (createdSystemNamespace) await kube.core.deleteNamespace({ name: SYSTEM_NAMESPACE }).catch(() => undefined);
    if (createdNodeNamespace) await kube.core.deleteNamespace({ name: NODE_NAMESPACE }).catch(() => undefined);
    await kube?.cleanup();
  });

  it('controller install and upgrade apply deploy/install.yaml (server dry run)', async () => {
    for (const verb of ['install', 'upgrade']) {
      const result = await kubeairunway(['controller', verb, '--dry-run=server']);
      expect(result.stderr).toContain(`${verb === 'install' ? 'Installing' : 'Upgrading'} kubeairunway from `);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/modeldeployments.kubeairunway.ai');
      expect(result.stdout).toMatch(/deployment\.apps\/kubeairunway-controller (created|configured|unchanged) \(server dry run\)/);
      expect(result.stdout.endsWith('Dry run (server): nothing was changed.\n')).toBe(true);
    }
  });

  it('provider install applies the provider on its own (server dry run), and names the built-ins for an unknown one', async () => {
    const result = await kubeairunway(['provider', 'install', 'kaito', '--dry-run=server']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/deployment\.apps\/kaito-provider (created|configured|unchanged) \(server dry run\)/);
    expect(await kubeairunway(['provider', 'install', 'acme'])).toMatchObject({
      code: 1,
      stderr: "error: Unknown provider 'acme': the built-in providers are deployment, dynamo, kaito, kuberay (a third-party provider comes with its own manifests).\n",
    });
  });

  it('controller uninstall refuses while ModelDeployments remain', async () => {
    await createDeployment({
      apiVersion: API_VERSION,
      kind: MODEL_DEPLOYMENT_KIND,
      metadata: { name: 'leftover', namespace: kube.namespace },
      spec: { model: { id: 'Qwen/Qwen2.5-0.5B-Instruct', source: 'huggingface' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } },
    } as ModelDeployment);
    const refused = await kubeairunway(['controller', 'uninstall']);
    expect(refused.code).toBe(1);
    // The shared cluster may hold other files' objects too: the sentence names the first few of them all
    // (its forms: cli/operator/uninstall-refusal.test.ts).
    expect(refused.stderr).toMatch(REFUSAL);

    const forced = await kubeairunway(['controller', 'uninstall', '--force', '--dry-run=server']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/deployment\.apps "kubeairunway-controller" deleted \(server dry run\)|Dry run/);
    expect(forced.stdout).toContain(`namespace "${NODE_NAMESPACE}" deleted (server dry run)`);
    expect(forced.stdout.endsWith('Dry run (server): nothing was changed.\n')).toBe(true);
  });

  it('controller uninstall refuses while any object waits on the controller to be deleted (a checkpoint whose image is still on its node), naming it', async () => {
    // Without the refusal the CRDs' deletion would wait forever on the finalizer, the controller being gone.
    const counted = async () => {
      const refused = await kubeairunway(['controller', 'uninstall']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(REFUSAL);
      return { count: Number(REFUSAL.exec(refused.stderr)![1]), stderr: refused.stderr };
    };
    // Other files' leftovers in the shared cluster only ever go (no controller runs meanwhile): one more
    // counted is the checkpoint.
    const before = await counted();
    const held = checkpointExample(kube.namespace, 'held', 'no-such-pod');
    held.metadata.finalizers = [ARTIFACTS_FINALIZER];
    await createCheckpoint(held);
    const after = await counted();
    expect(after.count).toBeGreaterThan(before.count);
    expect(after.stderr).toContain('objects of ours still exist');
  });
});

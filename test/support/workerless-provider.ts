// An InferenceProviderConfig with no worker behind it: registered by hand, with whatever status the test
// says its (absent) worker reported. Selection and validation read only the config, so the core takes
// such a provider at its word; nothing serves its task queue.
import { API_VERSION, PROVIDER_CONFIG_KIND, PROVIDER_CONFIGS } from '../../api/constants.ts';
import type { InferenceProviderConfig } from '../../api/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { kubeConfig } from './env.ts';

const SPEC = { capabilities: { engines: ['vllm'], gpuSupport: true, servingModes: ['aggregated'] }, selectionRules: [] };

export async function registerWorkerlessProvider(name: string, status: InferenceProviderConfig['status']): Promise<{ remove(): Promise<void> }> {
  const objects = new CustomObjects(kubeConfig());
  const ref = { ...PROVIDER_CONFIGS, name };
  await objects.apply(ref, { apiVersion: API_VERSION, kind: PROVIDER_CONFIG_KIND, metadata: { name }, spec: SPEC } as AnyObject, 'e2e-test');
  await objects.mergePatchStatus(ref, { status });
  return { remove: async () => void (await objects.delete(ref)) };
}

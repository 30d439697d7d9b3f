import type { KubeConfig } from '@kubernetes/client-node';
import { classifyKubeError } from './errors.ts';
import { KubeRest } from './rest.ts';

/**
 * Whether a Secret exists, asked as PartialObjectMetadata: the API server answers with the object's
 * metadata only, so Secret data never reaches this process (the seed: the controller never reads
 * secret contents).
 */
export async function secretExists(kc: KubeConfig, namespace: string, name: string): Promise<boolean> {
  try {
    await new KubeRest(kc).request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`, {
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    });
    return true;
  } catch (err) {
    if (classifyKubeError(err).type === 'NotFound') return false;
    throw err;
  }
}

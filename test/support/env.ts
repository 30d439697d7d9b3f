import { randomBytes } from 'node:crypto';
import { CoreV1Api, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';

/** A short random suffix so parallel tests never share a namespace, object or task queue. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export function stackInfo() {
  return inject('stack');
}

export function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(stackInfo().kubeconfigPath);
  return kc;
}

export interface TestKube {
  kc: KubeConfig;
  core: CoreV1Api;
  objects: KubernetesObjectApi;
  namespace: string;
  /** Deletes the namespace (the namespace controller finishes it in the background). */
  cleanup(): Promise<void>;
}

/** A client set and a fresh namespace for one test. */
export async function testKube(prefix = 'test'): Promise<TestKube> {
  const kc = kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  const namespace = uniqueName(prefix);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  return {
    kc,
    core,
    objects: KubernetesObjectApi.makeApiClient(kc),
    namespace,
    cleanup: async () => {
      await core.deleteNamespace({ name: namespace }).catch(() => undefined);
    },
  };
}

export async function temporalClient(): Promise<{ client: Client; connection: Connection }> {
  const info = stackInfo();
  const connection = await Connection.connect({ address: info.temporalAddress });
  return { connection, client: new Client({ connection, namespace: info.temporalNamespace }) };
}

/** Polls until `fn` returns a value other than undefined/false, or fails with the last observation. */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Polls `get` until the object it returns passes `check`, and returns that object (an absent one never passes). */
export function eventuallyMatches<T>(what: string, get: () => Promise<T | undefined>, check: (object: T) => boolean, timeoutMs = 60_000): Promise<T> {
  return eventually(what, async () => {
    const object = await get();
    return object && check(object) ? object : undefined;
  }, timeoutMs);
}

// The InferenceProviderConfigs admission needs, listed from the cluster and kept for a few seconds:
// the API server calls the webhook on every create and spec update, and a list per request would tie
// admission latency to the API server's own load. A slow or failing list never delays admission for
// long: the checks that need it are skipped instead, as they would be with the webhook down.

import type { KubeConfig } from '@kubernetes/client-node';
import type { InferenceProviderConfig } from '../api/types.ts';
import { PROVIDER_CONFIGS } from '../api/constants.ts';
import { CustomObjects } from '../kube/custom-objects.ts';

export interface ProviderConfigCacheOptions {
  list: () => Promise<InferenceProviderConfig[]>;
  /** How long a list is served without asking again (default 5 s). */
  ttlMs?: number;
  /** How long one admission request waits for a list in flight (default 2 s). */
  waitMs?: number;
  /** How long an old list is still used when listing fails (default 60 s). */
  maxStaleMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

export class ProviderConfigCache {
  private value: { configs: InferenceProviderConfig[]; at: number } | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly ttl: number;
  private readonly wait: number;
  private readonly maxStale: number;
  private readonly now: () => number;

  constructor(private readonly opts: ProviderConfigCacheOptions) {
    this.ttl = opts.ttlMs ?? 5_000;
    this.wait = opts.waitMs ?? 2_000;
    this.maxStale = opts.maxStaleMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** The configs, or undefined when none could be read recently enough to trust. */
  async get(): Promise<InferenceProviderConfig[] | undefined> {
    if (this.value && this.now() - this.value.at < this.ttl) return this.value.configs;
    const refresh = (this.inFlight ??= this.refresh());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.wait);
      timer.unref();
    });
    await Promise.race([refresh, timeout]);
    clearTimeout(timer);
    if (this.value && this.now() - this.value.at < this.ttl + this.maxStale) return this.value.configs;
    return undefined;
  }

  /** Forget the cached list (tests that create a config and want it seen at once). */
  invalidate(): void {
    this.value = undefined;
  }

  private async refresh(): Promise<void> {
    const started = this.now();
    try {
      const configs = await this.opts.list();
      this.value = { configs, at: started };
    } catch (err) {
      this.opts.onError?.(err);
    } finally {
      this.inFlight = undefined;
    }
  }
}

export function listProviderConfigs(kc: KubeConfig): () => Promise<InferenceProviderConfig[]> {
  const objects = new CustomObjects(kc);
  return async () => (await objects.list(PROVIDER_CONFIGS)) as unknown as InferenceProviderConfig[];
}

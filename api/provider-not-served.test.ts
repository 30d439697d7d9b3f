// A provider whose InferenceProviderConfig exists but that no worker ever reported on (issue 26): named
// as served by no worker, not as a provider whose CRD is missing (no CRD is involved).
import { describe, expect, it } from 'vitest';
import { validate } from './validate.ts';
import { installedProviderCrds, unreportedProviders } from '../providers/provider-configs.ts';
import type { InferenceProviderConfig } from './types.ts';

const spec = { model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' }, engine: { type: 'llamacpp' }, resources: { gpu: { count: 0 } }, provider: { name: 'acme' } };
const config = (name: string, status?: InferenceProviderConfig['status']): InferenceProviderConfig =>
  ({ metadata: { name }, spec: { capabilities: {}, selectionRules: [] }, ...(status ? { status } : {}) }) as unknown as InferenceProviderConfig;

describe('a provider no worker has reported', () => {
  const configs = [config('acme'), config('kaito', { ready: true, lastHeartbeat: '2026-01-01T00:00:00Z', upstreamCRDVersion: 'kaito.sh/v1beta1' })];
  const context = { installedProviderCRDs: installedProviderCrds(configs), registeredProviders: ['acme', 'kaito'], unreportedProviders: unreportedProviders(configs) };

  it('is found from a status no worker wrote', () => {
    expect(unreportedProviders(configs)).toEqual(['acme']);
    expect(unreportedProviders([config('gone', { ready: false, lastHeartbeat: '2026-01-01T00:00:00Z', upstreamCRDVersion: '' })])).toEqual([]);
  });

  it('is said to be served by no worker, and waits for one', () => {
    expect(validate(spec, context).errors).toEqual([
      {
        field: 'spec.provider.name',
        message: "No worker serves provider 'acme': its InferenceProviderConfig has never been reported on by a provider worker (no status)",
        awaits: 'ProviderWorker',
      },
    ]);
  });

  it('a reported provider without its CRD is still "CRD not installed"', () => {
    const reported = [config('acme', { ready: true, lastHeartbeat: '2026-01-01T00:00:00Z', upstreamCRDVersion: '' })];
    expect(validate(spec, { installedProviderCRDs: installedProviderCrds(reported), registeredProviders: ['acme'], unreportedProviders: unreportedProviders(reported) }).errors.map((e) => e.message)).toEqual([
      "Provider 'acme' CRD not installed in cluster",
    ]);
  });
});

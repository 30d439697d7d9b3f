// Certificate rotation on the real API server: a certificate close to expiry is replaced, and the API
// server keeps reaching the webhook across the change. Every request below is a dry-run create of an
// object only the webhook denies; with failurePolicy Ignore a TLS failure would admit it instead, so
// "denied" proves the webhook answered over a trusted connection.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificates, hostsFrom, splitBundle, validityOf } from '../../webhook/certificates.ts';
import { readCaBundles } from '../../webhook/registration.ts';
import type { RotationEvent } from '../../webhook/rotation.ts';
import { SecretCertificateStore } from '../../webhook/secret-store.ts';
import { providerNotInstalled } from '../../webhook/testing/seed-cases.ts';
import { testKube, uniqueName, type TestKube } from '../support/env.ts';
import { DENIED_BY, dryRunCreate, manifest, startTestWebhook, untilEffective, type TestWebhook } from './support.ts';

const MINUTE = 60_000;
const verbose = process.env.KUBEAIRUNWAY_TEST_VERBOSE === '1';

interface LoadResult {
  sent: number;
  denied: number;
  /** Answers other than the webhook's denial: an admitted object means the webhook was skipped. */
  other: string[];
  maxMs: number;
}

/** Sends dry-run creates from `workers` loops until `until` resolves. */
async function load(kube: TestKube, until: Promise<unknown>, workers = 2): Promise<LoadResult> {
  const provider = uniqueName('absent');
  const { spec } = providerNotInstalled(provider);
  // No InferenceProviderConfig of that name: the webhook denies it as not registered.
  const denial = `${DENIED_BY}Provider '${provider}' is not registered`;
  const result: LoadResult = { sent: 0, denied: 0, other: [], maxMs: 0 };
  let done = false;
  const finished = until.finally(() => {
    done = true;
  });
  const loop = async () => {
    while (!done) {
      const started = Date.now();
      result.sent++;
      const answer = await dryRunCreate(kube.kc, manifest(kube.namespace, uniqueName('load'), spec)).catch((err: unknown) => `error: ${String(err)}`);
      result.maxMs = Math.max(result.maxMs, Date.now() - started);
      if (answer?.startsWith(denial)) result.denied++;
      else result.other.push(answer ?? 'admitted');
    }
  };
  await Promise.all([finished, ...Array.from({ length: workers }, loop)]);
  return result;
}

describe('certificate rotation', () => {
  let kube: TestKube;
  const webhooks: TestWebhook[] = [];

  beforeAll(async () => {
    kube = await testKube('webhook-rotation');
  });

  afterAll(async () => {
    for (const w of webhooks) await w.cleanup();
    await kube?.cleanup();
  });

  it('a certificate close to expiry is rotated at start, and requests keep succeeding across the rotation', async () => {
    // Stored by an earlier run 50 minutes ago with a 1 h lifetime: 10 minutes left, less than a third.
    const secretName = uniqueName('webhook-tls');
    const old = await generateCertificates({ hosts: hostsFrom(['127.0.0.1']), now: Date.now() - 50 * MINUTE, validityMs: 60 * MINUTE });
    await new SecretCertificateStore(kube.kc, kube.namespace, secretName).create({ current: old, bundle: [old.caPem] });

    const events: (RotationEvent & { at: number })[] = [];
    let committed!: () => void;
    const commit = new Promise<void>((resolve) => (committed = resolve));
    const webhook = await startTestWebhook(kube.kc, kube.namespace, {
      secretName,
      certificates: { validityMs: 60 * MINUTE, propagationDelayMs: 5_000, checkIntervalMs: MINUTE },
      onRotation: (e) => {
        events.push({ ...e, at: Date.now() });
        if (e.type === 'committed') committed();
      },
    });
    webhooks.push(webhook);
    expect(webhook.server.servingCertPem()).toBe(old.serving.certPem);
    await untilEffective(kube.kc, kube.namespace);

    const result = await load(kube, commit.then(() => new Promise((r) => setTimeout(r, 2_000))));
    const commitAt = events.find((e) => e.type === 'committed')!.at;
    if (verbose) console.log('rotation at start:', { ...result, events: events.map((e) => e.type) });

    expect(events.map((e) => e.type)).toEqual(['prepared', 'served', 'committed', 'served']);
    expect(result.other).toEqual([]);
    expect(result.denied).toBe(result.sent);
    const validates = webhook.reviews.filter((r) => r.path === '/validate-modeldeployment');
    expect(validates.some((r) => r.at < commitAt)).toBe(true);
    expect(validates.some((r) => r.at > commitAt)).toBe(true);

    const served = webhook.server.servingCertPem()!;
    expect(served).not.toBe(old.serving.certPem);
    expect(validityOf(served)!.notAfter).toBeGreaterThan(Date.now() + 55 * MINUTE);
    // The old CA stays in the caBundle until it expires.
    for (const bundle of await readCaBundles(kube.kc, webhook.names)) expect(splitBundle(bundle)).toContain(old.caPem);
  });

  it('rotateNow twice under load: no request fails, the Secret and the caBundle follow', async () => {
    const webhook = await startTestWebhook(kube.kc, kube.namespace, { certificates: { propagationDelayMs: 2_000 } });
    webhooks.push(webhook);
    await untilEffective(kube.kc, kube.namespace);
    const first = webhook.server.servingCertPem();

    const rotations = (async () => {
      await new Promise((r) => setTimeout(r, 500));
      await webhook.server.rotateNow();
      await webhook.server.rotateNow();
      await new Promise((r) => setTimeout(r, 1_000));
    })();
    const result = await load(kube, rotations, 3);
    if (verbose) console.log('rotateNow x2:', result);

    expect(result.other).toEqual([]);
    expect(result.sent).toBeGreaterThan(10);
    const served = webhook.server.servingCertPem()!;
    expect(served).not.toBe(first);
    const stored = await new SecretCertificateStore(kube.kc, kube.namespace, webhook.secretName).read();
    expect(stored?.value?.current.serving.certPem).toBe(served);
    expect(stored?.value?.next).toBeUndefined();
    for (const bundle of await readCaBundles(kube.kc, webhook.names)) {
      expect(splitBundle(bundle)).toHaveLength(3);
      expect(splitBundle(bundle)[0]).toBe(stored?.value?.current.caPem);
    }
  });

  it('replicas starting together share one Secret: one creates it, the others adopt the winner', async () => {
    const secretName = uniqueName('webhook-tls');
    const replicas = await Promise.all([0, 1, 2].map(() => startTestWebhook(kube.kc, kube.namespace, { secretName })));
    webhooks.push(...replicas);
    const served = new Set(replicas.map((r) => r.server.servingCertPem()));
    expect(served.size).toBe(1);
    const stored = await new SecretCertificateStore(kube.kc, kube.namespace, secretName).read();
    expect(served.has(stored?.value?.current.serving.certPem)).toBe(true);
  });

  it('creates the controller namespace when it is missing (a fresh local stack)', async () => {
    const namespace = uniqueName('webhook-home');
    const replica = await startTestWebhook(kube.kc, kube.namespace, { namespace });
    webhooks.push(replica);
    try {
      const stored = await new SecretCertificateStore(kube.kc, namespace, replica.secretName).read();
      expect(stored?.value?.current.serving.certPem).toBe(replica.server.servingCertPem());
    } finally {
      await kube.core.deleteNamespace({ name: namespace }).catch(() => undefined);
    }
  });
});

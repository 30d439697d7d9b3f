// Helpers shared by the webhook tests on the local stack: kubectl as users run it, ModelDeployment
// manifests, and a webhook instance confined to one test namespace.

import { spawn } from 'node:child_process';
import type { KubeConfig } from '@kubernetes/client-node';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { collectionPath, CustomObjects, type ResourceRef } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { KubeRest } from '../../kube/rest.ts';
import { startWebhookServer, unregisterWebhooks, type ReviewRecord, type WebhookServer, type WebhookServerOptions } from '../../webhook/index.ts';
import { stackInfo, uniqueName } from '../support/env.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(args: string[], stdin?: string): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', stackInfo().kubeconfigPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

export function manifest(namespace: string, name: string, spec: ModelDeploymentSpec, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name, namespace, ...metadata }, spec };
}

/** `kubectl apply -f -` of one object (JSON is YAML). */
export function kubectlApply(obj: unknown): Promise<KubectlResult> {
  return kubectl(['apply', '-f', '-'], JSON.stringify(obj));
}

export function mdRef(namespace: string, name: string): ResourceRef {
  return { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments', namespace, name };
}

/**
 * A server-side dry-run create: goes through admission like a real one (the webhooks declare no side
 * effects) and stores nothing. Resolves with the denial message, or undefined when admitted.
 */
export async function dryRunCreate(kc: KubeConfig, obj: Record<string, unknown>): Promise<string | undefined> {
  const meta = obj.metadata as { namespace: string };
  const path = collectionPath({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments', namespace: meta.namespace });
  try {
    await new KubeRest(kc).request('POST', path, { body: obj, query: { dryRun: 'All' } });
    return undefined;
  } catch (err) {
    const k = classifyKubeError(err);
    if (k.type === 'Forbidden') return k.detail;
    throw err;
  }
}

export const DENIED_BY = 'admission webhook "validate.modeldeployments.kubeairunway.ai" denied the request: ';
export const PROVIDER_CONFIG_DENIED_BY = 'admission webhook "validate.inferenceproviderconfigs.kubeairunway.ai" denied the request: ';

/** The label that sends an InferenceProviderConfig to one test webhook (its validating configuration's name). */
export const PROVIDER_CONFIG_TEST_LABEL = 'test.kubeairunway.ai/webhook';

export type TimedReview = ReviewRecord & { at: number };

export interface TestWebhook {
  server: WebhookServer;
  reviews: TimedReview[];
  names: { validating: string; mutating: string };
  secretName: string;
  /** Stops the server; the configurations stay registered, as after a crash. */
  stop(): Promise<void>;
  /** Stops the server if running and deletes the configurations. */
  cleanup(): Promise<void>;
}

/** A webhook registered under unique names and called only for `namespace`, so parallel test files never meet it. */
export async function startTestWebhook(kc: KubeConfig, namespace: string, extra: Partial<WebhookServerOptions> = {}): Promise<TestWebhook> {
  const names = { validating: uniqueName('test-validating'), mutating: uniqueName('test-mutating') };
  const secretName = extra.secretName ?? uniqueName('webhook-tls');
  const reviews: TimedReview[] = [];
  const server = await startWebhookServer({
    kc,
    namespace,
    secretName,
    providerConfigTtlMs: 200,
    onReview: (r) => reviews.push({ ...r, at: Date.now() }),
    ...extra,
    register: {
      configurationNames: names,
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
      // InferenceProviderConfigs are cluster-scoped: only those labelled for this webhook reach it.
      providerConfigSelector: { matchLabels: { [PROVIDER_CONFIG_TEST_LABEL]: names.validating } },
      ...extra.register,
    },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
  };
  return {
    server,
    reviews,
    names,
    secretName,
    stop,
    cleanup: async () => {
      await stop();
      await unregisterWebhooks(kc, names);
    },
  };
}

/** The API server picks up new webhook configurations a moment after they are written. */
export async function untilEffective(kc: KubeConfig, namespace: string): Promise<void> {
  const probe = manifest(namespace, uniqueName('probe'), { model: { id: 'a/b' }, provider: { name: 'never-installed' }, engine: { type: 'llamacpp' } });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await dryRunCreate(kc, probe)) !== undefined) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the webhook never became effective');
}

export async function removeFinalizers(kc: KubeConfig, ref: ResourceRef): Promise<void> {
  await new CustomObjects(kc).mergePatch(ref, { metadata: { finalizers: null } });
}

// The ValidatingWebhookConfiguration and MutatingWebhookConfiguration that send ModelDeployments to
// this webhook, applied by the controller itself (server-side apply, one field manager) so the caBundle
// always matches the certificates it serves. The validating configuration also sends
// InferenceProviderConfigs, whose CEL selection rules must compile (providers/rule-errors.ts): a rule
// that cannot compile would otherwise be stored and silently never match.
//
// The webhook must never stand between a user and a delete, or between the controller and its own
// writes: failurePolicy Ignore (down means admitted, the reconcile path validates), only CREATE and
// UPDATE of the main resource (never DELETE, never status), and a match condition that skips updates
// leaving the spec unchanged, such as a finalizer removal or a label edit.

import type { KubeConfig } from '@kubernetes/client-node';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_PLURAL, VERSION } from '../api/constants.ts';
import { CustomObjects, type AnyObject, type ResourceRef } from '../kube/custom-objects.ts';
import type { BundlePublisher } from './rotation.ts';

export const VALIDATE_PATH = '/validate-modeldeployment';
export const MUTATE_PATH = '/mutate-modeldeployment';
export const VALIDATE_PROVIDER_CONFIG_PATH = '/validate-inferenceproviderconfig';

/** Names of the webhooks inside the configurations; kubectl quotes them: `admission webhook "<name>" denied the request`. */
export const VALIDATING_WEBHOOK_NAME = 'validate.modeldeployments.kubeairunway.ai';
export const MUTATING_WEBHOOK_NAME = 'default.modeldeployments.kubeairunway.ai';
export const PROVIDER_CONFIG_WEBHOOK_NAME = 'validate.inferenceproviderconfigs.kubeairunway.ai';

export interface ConfigurationNames {
  validating: string;
  mutating: string;
}

export const DEFAULT_CONFIGURATION_NAMES: ConfigurationNames = {
  validating: 'kubeairunway-validating-webhook',
  mutating: 'kubeairunway-mutating-webhook',
};

export const WEBHOOK_FIELD_MANAGER = 'kubeairunway-webhook';

/**
 * `request.operation == 'CREATE'` first: on a create there is no oldObject. The has() guards keep an
 * object without spec from failing the expression (with failurePolicy Ignore an error would skip the
 * webhook; it is sent instead).
 */
export const SPEC_CHANGED_CONDITION = {
  name: 'spec-changed',
  expression: "request.operation == 'CREATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec",
};

/** Where the API server reaches the webhook: a loopback URL for the local stack, a Service in a cluster. */
export type WebhookEndpoint = { url: string } | { service: { namespace: string; name: string; port?: number } };

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export interface RegistrationOptions {
  endpoint: WebhookEndpoint;
  configurationNames?: Partial<ConfigurationNames>;
  /** Only namespaces matching it are sent to the webhook (default: all). */
  namespaceSelector?: LabelSelector;
  /**
   * Only InferenceProviderConfigs whose labels match it are sent (default: all). They are cluster-scoped,
   * so namespaceSelector cannot confine them; tests use this to keep their webhook to their own configs.
   */
  providerConfigSelector?: LabelSelector;
  /** How long the API server waits for an answer before ignoring the webhook (default 5, at most 30). */
  timeoutSeconds?: number;
}

function names(opts: RegistrationOptions): ConfigurationNames {
  return { ...DEFAULT_CONFIGURATION_NAMES, ...opts.configurationNames };
}

function clientConfig(endpoint: WebhookEndpoint, path: string, caBundlePem: string): Record<string, unknown> {
  const caBundle = Buffer.from(caBundlePem, 'utf8').toString('base64');
  if ('url' in endpoint) return { url: `${endpoint.url.replace(/\/+$/, '')}${path}`, caBundle };
  const { namespace, name, port } = endpoint.service;
  return { service: { namespace, name, path, port: port ?? 443 }, caBundle };
}

function webhook(name: string, path: string, opts: RegistrationOptions, caBundlePem: string): Record<string, unknown> {
  return {
    name,
    clientConfig: clientConfig(opts.endpoint, path, caBundlePem),
    rules: [
      {
        apiGroups: [GROUP],
        apiVersions: [VERSION],
        operations: ['CREATE', 'UPDATE'],
        resources: [MODEL_DEPLOYMENT_PLURAL],
        scope: 'Namespaced',
      },
    ],
    matchConditions: [SPEC_CHANGED_CONDITION],
    failurePolicy: 'Ignore',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: opts.timeoutSeconds ?? 5,
    namespaceSelector: opts.namespaceSelector ?? {},
  };
}

/**
 * The same guarantees as for ModelDeployments (Ignore when down, never deletes or status: the provider's
 * heartbeat writes status every 30 s), for the cluster-scoped InferenceProviderConfigs.
 */
function providerConfigWebhook(opts: RegistrationOptions, caBundlePem: string): Record<string, unknown> {
  return {
    name: PROVIDER_CONFIG_WEBHOOK_NAME,
    clientConfig: clientConfig(opts.endpoint, VALIDATE_PROVIDER_CONFIG_PATH, caBundlePem),
    rules: [
      {
        apiGroups: [GROUP],
        apiVersions: [VERSION],
        operations: ['CREATE', 'UPDATE'],
        resources: [PROVIDER_CONFIG_PLURAL],
        scope: 'Cluster',
      },
    ],
    matchConditions: [SPEC_CHANGED_CONDITION],
    failurePolicy: 'Ignore',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: opts.timeoutSeconds ?? 5,
    objectSelector: opts.providerConfigSelector ?? {},
  };
}

const MANAGED_LABELS = { 'app.kubernetes.io/managed-by': WEBHOOK_FIELD_MANAGER };

/** Both configurations as they are applied (pure, for tests and for printing install manifests). */
export function webhookConfigurations(opts: RegistrationOptions, caBundlePem: string): { validating: AnyObject; mutating: AnyObject } {
  const n = names(opts);
  return {
    validating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: n.validating, labels: MANAGED_LABELS },
      webhooks: [webhook(VALIDATING_WEBHOOK_NAME, VALIDATE_PATH, opts, caBundlePem), providerConfigWebhook(opts, caBundlePem)],
    },
    mutating: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: n.mutating, labels: MANAGED_LABELS },
      webhooks: [{ ...webhook(MUTATING_WEBHOOK_NAME, MUTATE_PATH, opts, caBundlePem), reinvocationPolicy: 'Never' }],
    },
  };
}

function refs(n: ConfigurationNames): { validating: ResourceRef; mutating: ResourceRef } {
  const base = { group: 'admissionregistration.k8s.io', version: 'v1' };
  return {
    validating: { ...base, plural: 'validatingwebhookconfigurations', name: n.validating },
    mutating: { ...base, plural: 'mutatingwebhookconfigurations', name: n.mutating },
  };
}

/** Creates or updates both configurations with this CA bundle. */
export async function registerWebhooks(kc: KubeConfig, opts: RegistrationOptions, caBundlePem: string): Promise<void> {
  const objects = new CustomObjects(kc);
  const configs = webhookConfigurations(opts, caBundlePem);
  const r = refs(names(opts));
  // Mutating first: were the process to stop between the two, defaults without validation is the
  // harmless half (the reconcile path validates anyway).
  await objects.apply(r.mutating, configs.mutating, WEBHOOK_FIELD_MANAGER);
  await objects.apply(r.validating, configs.validating, WEBHOOK_FIELD_MANAGER);
}

/** Deletes both configurations; absent ones are fine. */
export async function unregisterWebhooks(kc: KubeConfig, configurationNames: Partial<ConfigurationNames> = {}): Promise<void> {
  const objects = new CustomObjects(kc);
  const r = refs({ ...DEFAULT_CONFIGURATION_NAMES, ...configurationNames });
  await objects.delete(r.validating);
  await objects.delete(r.mutating);
}

/** The caBundle (PEM) of every webhook in both configurations; a missing configuration contributes an empty one. */
export async function readCaBundles(kc: KubeConfig, configurationNames: Partial<ConfigurationNames> = {}): Promise<string[]> {
  const objects = new CustomObjects(kc);
  const r = refs({ ...DEFAULT_CONFIGURATION_NAMES, ...configurationNames });
  const out: string[] = [];
  for (const ref of [r.mutating, r.validating]) {
    const config = await objects.get(ref);
    const hooks = (config?.webhooks as { clientConfig?: { caBundle?: string } }[] | undefined) ?? [{}];
    for (const hook of hooks) out.push(Buffer.from(hook.clientConfig?.caBundle ?? '', 'base64').toString('utf8'));
  }
  return out;
}

/** Keeps the configurations' caBundle in step with certificate rotation. */
export function registrationPublisher(kc: KubeConfig, opts: RegistrationOptions): BundlePublisher {
  return {
    publish: (bundlePem) => registerWebhooks(kc, opts, bundlePem),
    published: () => readCaBundles(kc, opts.configurationNames),
  };
}

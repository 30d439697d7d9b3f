// Public entry of webhook/: the admission server for ModelDeployments (and the selection rules of
// InferenceProviderConfigs) with its certificates and registration, started from the embedded run (`kubeairunway dev`) and from the controller process.

import type { KubeConfig } from '@kubernetes/client-node';
import { hostsFrom, type Hosts } from './certificates.ts';
import { ProviderConfigCache, listProviderConfigs } from './provider-configs.ts';
import { registrationPublisher, type ConfigurationNames, type LabelSelector, type WebhookEndpoint } from './registration.ts';
import { validateProviderConfigRequest } from './provider-config-review.ts';
import { mutateRequest, validateRequest } from './review.ts';
import { CertificateManager, type Clock, type RotationEvent, type RotationPolicy } from './rotation.ts';
import { SecretCertificateStore } from './secret-store.ts';
import { listenAdmission, type ReviewRecord } from './server.ts';

export { parseReview, type AdmissionRequest, type AdmissionResponse, type AdmissionReview } from './admission.ts';
export { capabilityWarnings } from './capabilities.ts';
export { generateCertificates, type CertificateSet, type PemPair } from './certificates.ts';
export { ProviderConfigCache } from './provider-configs.ts';
export {
  DEFAULT_CONFIGURATION_NAMES,
  MUTATE_PATH,
  MUTATING_WEBHOOK_NAME,
  PROVIDER_CONFIG_WEBHOOK_NAME,
  readCaBundles,
  registerWebhooks,
  registrationPublisher,
  unregisterWebhooks,
  VALIDATE_PATH,
  VALIDATE_PROVIDER_CONFIG_PATH,
  VALIDATING_WEBHOOK_NAME,
  webhookConfigurations,
  type ConfigurationNames,
  type LabelSelector,
  type RegistrationOptions,
  type WebhookEndpoint,
} from './registration.ts';
export { mutateRequest, validateRequest, type ClusterFacts, type MutateOptions } from './review.ts';
export { validateProviderConfigRequest } from './provider-config-review.ts';
export { CertificateManager, DEFAULT_POLICY, type BundlePublisher, type Clock, type RotationEvent, type RotationPolicy } from './rotation.ts';
export { MemoryCertificateStore, type CertificateStore, type StoredCertificates } from './store.ts';
export { SecretCertificateStore } from './secret-store.ts';
export type { ReviewRecord } from './server.ts';

export const DEFAULT_SECRET_NAME = 'kubeairunway-webhook-tls';

/** pino's calling convention, so a pino logger can be passed as is. */
export interface WebhookLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface WebhookRegistration {
  /** Default: this server's own URL (https://<host>:<port>), right for the local stack. */
  endpoint?: WebhookEndpoint;
  configurationNames?: Partial<ConfigurationNames>;
  namespaceSelector?: LabelSelector;
  /** Only InferenceProviderConfigs with matching labels are reviewed (default: all). */
  providerConfigSelector?: LabelSelector;
  timeoutSeconds?: number;
}

export interface WebhookServerOptions {
  kc: KubeConfig;
  /** Namespace of the certificate Secret (the controller's); created when missing. */
  namespace: string;
  secretName?: string;
  /** Listen address (default 127.0.0.1; 0.0.0.0 in a pod). */
  host?: string;
  /** Listen port (default 0: any free port). */
  port?: number;
  /**
   * Names the serving certificate must carry, besides the ones derived from the listen address and the
   * registered endpoint (IP addresses and DNS names alike).
   */
  extraHosts?: readonly string[];
  /** Register the webhook configurations and keep their caBundle current. Omit to leave registration to someone else. */
  register?: WebhookRegistration;
  certificates?: Partial<RotationPolicy>;
  /** How long the InferenceProviderConfig list is reused (default 5 s). */
  providerConfigTtlMs?: number;
  /** Persist model.servedName derived from model.id at admission (default false; see review.ts). */
  persistDerivedFields?: boolean;
  log?: WebhookLogger;
  onReview?: (record: ReviewRecord) => void;
  onRotation?: (event: RotationEvent) => void;
  clock?: Clock;
}

export interface WebhookServer {
  port: number;
  /** https://<host>:<port>, without a path. */
  url: string;
  /** The CA bundle (PEM) clients of this server must trust now. */
  caBundlePem(): string;
  /** The serving certificate (PEM) presented now. */
  servingCertPem(): string | undefined;
  /** Rotates the CA and serving certificate now; resolves once the new one is served. */
  rotateNow(): Promise<void>;
  /** Drops the cached InferenceProviderConfig list, so the next review reads it again. */
  refreshProviderConfigs(): void;
  /** Stops serving and rotating; the webhook configurations stay (other replicas may serve them). */
  stop(): Promise<void>;
}

const silent: WebhookLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Adapts a plain line writer (the embedded run's `log`) to WebhookLogger. */
export function lineLogger(write: (line: string) => void): WebhookLogger {
  const line = (level: string) => (fields: object, msg: string) => {
    const detail = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    write(`webhook ${level === 'info' ? '' : `${level}: `}${msg}${detail ? ` (${detail})` : ''}`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

/** Every name the API server may use to reach this server, for the certificate's subjectAltName. */
export function certificateHosts(host: string, endpoint: WebhookEndpoint | undefined, extra: readonly string[] = []): Hosts {
  const names: string[] = [...extra];
  if (host === '0.0.0.0' || host === '::' || host === '') names.push('127.0.0.1', 'localhost');
  else names.push(host);
  if (endpoint && 'url' in endpoint) names.push(new URL(endpoint.url).hostname.replace(/^\[|\]$/g, ''));
  if (endpoint && 'service' in endpoint) {
    const { name, namespace } = endpoint.service;
    names.push(`${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`, `${name}.${namespace}`, name);
  }
  return hostsFrom(names);
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const log = options.log ?? silent;
  const host = options.host ?? '127.0.0.1';
  const cache = new ProviderConfigCache({
    list: listProviderConfigs(options.kc),
    ttlMs: options.providerConfigTtlMs,
    onError: (err) => log.warn({ err: String(err) }, 'listing InferenceProviderConfigs failed; provider checks skipped at admission'),
  });

  const server = await listenAdmission({
    host,
    port: options.port ?? 0,
    handlers: {
      validate: async (req) => validateRequest(req, { providerConfigs: await cache.get() }),
      mutate: async (req) => mutateRequest(req, { persistDerivedFields: options.persistDerivedFields }),
      validateProviderConfig: async (req) => validateProviderConfigRequest(req),
    },
    onReview: options.onReview,
    onError: (err) => log.error({ err: String(err) }, 'admission review failed'),
  });
  const url = `https://${urlHost(host)}:${server.port}`;
  const endpoint: WebhookEndpoint | undefined = options.register ? (options.register.endpoint ?? { url }) : undefined;

  const manager = new CertificateManager({
    store: new SecretCertificateStore(options.kc, options.namespace, options.secretName ?? DEFAULT_SECRET_NAME),
    hosts: certificateHosts(host, endpoint, options.extraHosts),
    policy: options.certificates,
    clock: options.clock,
    ...(options.register && endpoint
      ? {
          publisher: registrationPublisher(options.kc, {
            endpoint,
            configurationNames: options.register.configurationNames,
            namespaceSelector: options.register.namespaceSelector,
            providerConfigSelector: options.register.providerConfigSelector,
            timeoutSeconds: options.register.timeoutSeconds,
          }),
        }
      : {}),
    onServing: (pair) => server.setCertificate(pair),
    onEvent: (event) => {
      options.onRotation?.(event);
      log.info({ event: event.type, notAfter: event.notAfter ? new Date(event.notAfter).toISOString() : undefined }, `webhook certificate ${event.type}`);
    },
    onError: (err) => log.error({ err: String(err) }, 'webhook certificate check failed; retrying'),
  });

  try {
    await manager.start();
  } catch (err) {
    await server.close();
    throw err;
  }
  log.info({ url }, 'admission webhook serving');

  return {
    port: server.port,
    url,
    caBundlePem: () => manager.bundlePem,
    servingCertPem: () => manager.servingCertPem,
    rotateNow: () => manager.rotateNow(),
    refreshProviderConfigs: () => cache.invalidate(),
    stop: async () => {
      manager.stop();
      await server.close();
    },
  };
}

// The certificate store as a Secret in the controller's namespace (type kubernetes.io/tls, so tools
// that read tls.crt/tls.key find the serving pair where they expect it). The resourceVersion is the
// store version: a PUT with a stale one fails with Conflict, a POST of an existing Secret with
// AlreadyExists, and both mean another replica got there first.

import type { KubeConfig } from '@kubernetes/client-node';
import { classifyKubeError } from '../kube/errors.ts';
import { collectionPath, objectPath } from '../kube/custom-objects.ts';
import { KubeRest } from '../kube/rest.ts';
import { joinBundle, splitBundle, type CertificateSet } from './certificates.ts';
import type { CertificateStore, StoreRecord, StoredCertificates } from './store.ts';

const KEY = {
  cert: 'tls.crt',
  key: 'tls.key',
  ca: 'ca.crt',
  bundle: 'ca-bundle.crt',
  nextCert: 'next-tls.crt',
  nextKey: 'next-tls.key',
  nextCa: 'next-ca.crt',
} as const;

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'kubeairunway-webhook';

interface Secret {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  type?: string;
  data?: Record<string, string>;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined): string | undefined => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));

export function encodeSecretData(value: StoredCertificates): Record<string, string> {
  const data: Record<string, string> = {
    [KEY.cert]: b64(value.current.serving.certPem),
    [KEY.key]: b64(value.current.serving.keyPem),
    [KEY.ca]: b64(value.current.caPem),
    [KEY.bundle]: b64(joinBundle(value.bundle)),
  };
  if (value.next) {
    data[KEY.nextCert] = b64(value.next.serving.certPem);
    data[KEY.nextKey] = b64(value.next.serving.keyPem);
    data[KEY.nextCa] = b64(value.next.caPem);
  }
  return data;
}

export function decodeSecretData(data: Record<string, string> | undefined): StoredCertificates | undefined {
  const get = (k: string) => unb64(data?.[k]);
  const set = (cert: string | undefined, key: string | undefined, ca: string | undefined): CertificateSet | undefined =>
    cert && key && ca ? { caPem: ca, serving: { certPem: cert, keyPem: key } } : undefined;
  const current = set(get(KEY.cert), get(KEY.key), get(KEY.ca));
  if (!current) return undefined;
  const next = set(get(KEY.nextCert), get(KEY.nextKey), get(KEY.nextCa));
  return { current, bundle: splitBundle(get(KEY.bundle) ?? ''), ...(next ? { next } : {}) };
}

export class SecretCertificateStore implements CertificateStore {
  private readonly rest: KubeRest;

  constructor(
    kc: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.rest = new KubeRest(kc);
  }

  private get ref() {
    return { group: '', version: 'v1', plural: 'secrets', namespace: this.namespace, name: this.name };
  }

  private body(value: StoredCertificates, resourceVersion?: string): Secret {
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: this.name, namespace: this.namespace, labels: { [MANAGED_BY_LABEL]: MANAGED_BY }, ...(resourceVersion ? { resourceVersion } : {}) },
      type: 'kubernetes.io/tls',
      data: encodeSecretData(value),
    };
  }

  async read(): Promise<StoreRecord | undefined> {
    let secret: Secret;
    try {
      secret = await this.rest.request<Secret>('GET', objectPath(this.ref));
    } catch (err) {
      if (classifyKubeError(err).type === 'NotFound') return undefined;
      throw err;
    }
    return { value: decodeSecretData(secret.data), version: secret.metadata?.resourceVersion ?? '' };
  }

  async create(value: StoredCertificates, namespaceCreated = false): Promise<boolean> {
    try {
      await this.rest.request('POST', collectionPath(this.ref), { body: this.body(value) });
      return true;
    } catch (err) {
      const type = classifyKubeError(err).type;
      if (type === 'AlreadyExists') return false;
      // The namespace itself is missing (a fresh local stack); in a cluster the install creates it.
      if (type === 'NotFound' && !namespaceCreated) {
        await this.createNamespace();
        return this.create(value, true);
      }
      throw err;
    }
  }

  async update(value: StoredCertificates, version: string): Promise<boolean> {
    try {
      await this.rest.request('PUT', objectPath(this.ref), { body: this.body(value, version) });
      return true;
    } catch (err) {
      const type = classifyKubeError(err).type;
      // NotFound: deleted since it was read; the next read starts over with a fresh Secret.
      if (type === 'Conflict' || type === 'NotFound') return false;
      throw err;
    }
  }

  private async createNamespace(): Promise<void> {
    try {
      await this.rest.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } } });
    } catch (err) {
      if (classifyKubeError(err).type !== 'AlreadyExists') throw err;
    }
  }
}

// The Temporal credentials as the kustomize components add them (components/temporal-mtls and
// components/temporal-api-key): the chart takes the env, mounts and volumes from those patches rather than
// restating them, and swaps the Secret's name (and key) for values. Secrets are referenced only, never
// read: the pod gets them from the kubelet.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEPLOY_DIR } from '../render.ts';

export interface CredentialPatch {
  env: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
  volumeMounts: unknown[];
  volumes: { name: string; secret: { secretName: string } }[];
}

interface ComponentPatch {
  spec: { template: { spec: { containers: { env?: CredentialPatch['env']; volumeMounts?: unknown[] }[]; volumes?: CredentialPatch['volumes'] } } };
}

/** The one patch of a credential component, as the pod-spec parts it adds. */
export function credentialPatch(component: 'temporal-mtls' | 'temporal-api-key'): CredentialPatch {
  const file = join(DEPLOY_DIR, 'components', component, 'kustomization.yaml');
  const { patches } = parse(readFileSync(file, 'utf8')) as { patches: { patch: string }[] };
  if (patches.length !== 1) throw new Error(`${file}: the chart expects one patch`);
  const spec = (parse(patches[0]!.patch) as ComponentPatch).spec.template.spec;
  const container = spec.containers[0]!;
  return { env: container.env ?? [], volumeMounts: container.volumeMounts ?? [], volumes: spec.volumes ?? [] };
}

/** The mTLS component's Secret name (its one volume's). */
export function tlsSecretName(patch: CredentialPatch): string {
  const [volume] = patch.volumes;
  if (!volume) throw new Error('components/temporal-mtls mounts no Secret');
  return volume.secret.secretName;
}

/** The API key component's Secret reference (its one env var's). */
export function apiKeyRef(patch: CredentialPatch): { name: string; key: string } {
  const ref = patch.env.find((e) => e.valueFrom)?.valueFrom?.secretKeyRef;
  if (!ref) throw new Error('components/temporal-api-key reads no Secret key');
  return ref;
}

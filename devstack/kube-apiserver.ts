import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from './http.ts';
import { freePort } from './ports.ts';
import { inNetns, NODE_IP, SERVICE_CIDR } from './cluster/network.ts';
import type { ClusterPki } from './cluster/pki.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

export interface KubeApiServer {
  process: ManagedProcess;
  url: string;
  /** Bearer token of the `admin` user (group system:masters). */
  adminToken: string;
  /** The self-signed serving certificate the API server wrote; clients trust it as their CA. */
  caFile: string;
}

/** Service-account signing key and admin token; kept in the state folder so a reused stack keeps them. */
function credentials(pki: string): { keyFile: string; pubFile: string; tokenFile: string; token: string } {
  mkdirSync(pki, { recursive: true });
  const keyFile = join(pki, 'sa.key');
  const pubFile = join(pki, 'sa.pub');
  if (!existsSync(keyFile)) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeFileSync(keyFile, privateKey, { mode: 0o600 });
    writeFileSync(pubFile, publicKey);
  }
  const tokenFile = join(pki, 'tokens.csv');
  if (!existsSync(tokenFile)) {
    writeFileSync(tokenFile, `${randomBytes(24).toString('hex')},admin,admin,"system:masters"\n`, { mode: 0o600 });
  }
  const token = readFileSync(tokenFile, 'utf8').split(',')[0]!;
  return { keyFile, pubFile, tokenFile, token };
}

/** The cluster mode's API server: inside the stack's network namespace, with the cluster's certificates. */
export interface ApiServerInCluster {
  netns: string;
  pki: ClusterPki;
}

export async function startKubeApiServer(bin: string, stateDir: string, etcdUrl: string, fixedPort?: number, cluster?: ApiServerInCluster): Promise<KubeApiServer> {
  const port = fixedPort ?? (await freePort());
  const pki = join(stateDir, 'pki');
  const creds = credentials(pki);
  const url = `https://127.0.0.1:${port}`;
  const common = [
    `--etcd-servers=${etcdUrl}`,
    `--secure-port=${port}`,
    `--token-auth-file=${creds.tokenFile}`,
    '--authorization-mode=RBAC',
    `--service-account-key-file=${creds.pubFile}`,
    `--service-account-signing-key-file=${creds.keyFile}`,
    '--allow-privileged=true',
    '--v=1',
  ];
  const local = [
    '--bind-address=127.0.0.1',
    // Without it a loopback-bound server looks for the default-route interface and fails on hosts without one.
    '--advertise-address=127.0.0.1',
    `--cert-dir=${pki}`,
    `--service-account-issuer=${url}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    // No token controller runs here, so the ServiceAccount admission plugin would reject every pod.
    '--disable-admission-plugins=ServiceAccount',
    '--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook',
  ];
  const args = [...common, ...(cluster ? clusterArgs(cluster.pki) : local)];
  const proc = startProcess('kube-apiserver', ...inNetns(cluster?.netns, bin, args), join(stateDir, 'kube-apiserver.log'));
  await waitUntil(proc, 'ready', 180_000, async () => (await probe(`${url}/readyz`, creds.token)).status === 200);
  return { process: proc, url, adminToken: creds.token, caFile: cluster?.pki.caFile ?? join(pki, 'apiserver.crt') };
}

/**
 * A cluster's API server: reachable on the node's address (pods reach it through the `kubernetes`
 * Service, whose endpoint is that address), service accounts admitted as on any cluster, and webhooks and
 * aggregated APIs called at their endpoints' addresses (there is no cluster DNS for the API server itself).
 */
function clusterArgs(pki: ClusterPki): string[] {
  return [
    '--bind-address=0.0.0.0',
    `--advertise-address=${NODE_IP}`,
    `--tls-cert-file=${pki.apiServerCert}`,
    `--tls-private-key-file=${pki.apiServerKey}`,
    `--client-ca-file=${pki.caFile}`,
    `--kubelet-client-certificate=${pki.kubeletClientCert}`,
    `--kubelet-client-key=${pki.kubeletClientKey}`,
    '--kubelet-preferred-address-types=InternalIP',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-cluster-ip-range=${SERVICE_CIDR}`,
    '--enable-admission-plugins=ServiceAccount,MutatingAdmissionWebhook,ValidatingAdmissionWebhook',
    '--enable-aggregator-routing=true',
  ];
}


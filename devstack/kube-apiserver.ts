import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probe } from './http.ts';
import { freePort } from './ports.ts';
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

export async function startKubeApiServer(bin: string, stateDir: string, etcdUrl: string, fixedPort?: number): Promise<KubeApiServer> {
  const port = fixedPort ?? (await freePort());
  const pki = join(stateDir, 'pki');
  const creds = credentials(pki);
  const url = `https://127.0.0.1:${port}`;
  const proc = startProcess(
    'kube-apiserver',
    bin,
    [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      // Without it a loopback-bound server looks for the default-route interface and fails on hosts without one.
      '--advertise-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${pki}`,
      `--token-auth-file=${creds.tokenFile}`,
      '--authorization-mode=RBAC',
      `--service-account-issuer=${url}`,
      `--service-account-key-file=${creds.pubFile}`,
      `--service-account-signing-key-file=${creds.keyFile}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--allow-privileged=true',
      // No token controller runs here, so the ServiceAccount admission plugin would reject every pod.
      '--disable-admission-plugins=ServiceAccount',
      '--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook',
      '--v=1',
    ],
    join(stateDir, 'kube-apiserver.log'),
  );
  await waitUntil(proc, 'ready', 180_000, async () => (await probe(`${url}/readyz`, creds.token)).status === 200);
  return { process: proc, url, adminToken: creds.token, caFile: join(pki, 'apiserver.crt') };
}

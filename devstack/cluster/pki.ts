import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLUSTER_DOMAIN, KUBERNETES_SERVICE_IP, NODE_IP } from './network.ts';

// The cluster mode's certificates, made once per state folder with openssl: a CA the whole cluster trusts
// (the kubeconfig's, and the pods' kube-root-ca.crt, published by the controller manager), the API
// server's serving certificate for every name it is called by (127.0.0.1 from the host through the relay,
// the node's address, the `kubernetes` Service's IP and DNS names), and the API server's client
// certificate towards the kubelet (logs, exec, port-forward), which the kubelet checks against that CA.

export interface ClusterPki {
  caFile: string;
  apiServerCert: string;
  apiServerKey: string;
  kubeletClientCert: string;
  kubeletClientKey: string;
}

const DAYS = '3650';

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
}

function keyAndRequest(dir: string, name: string, subject: string): void {
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, `${name}.key`), '-subj', subject, '-out', join(dir, `${name}.csr`)]);
}

function sign(dir: string, name: string, extensions: string): void {
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  openssl(['x509', '-req', '-in', join(dir, `${name}.csr`), '-CA', join(dir, 'ca.crt'), '-CAkey', join(dir, 'ca.key'), '-CAcreateserial', '-days', DAYS, '-sha256', '-extfile', ext, '-out', join(dir, `${name}.crt`)]);
}

export function ensureClusterPki(stateDir: string): ClusterPki {
  const dir = join(stateDir, 'pki', 'cluster');
  mkdirSync(dir, { recursive: true });
  const pki: ClusterPki = {
    caFile: join(dir, 'ca.crt'),
    apiServerCert: join(dir, 'apiserver.crt'),
    apiServerKey: join(dir, 'apiserver.key'),
    kubeletClientCert: join(dir, 'apiserver-kubelet-client.crt'),
    kubeletClientKey: join(dir, 'apiserver-kubelet-client.key'),
  };
  if (Object.values(pki).every((f) => existsSync(f))) return pki;
  openssl(['req', '-x509', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'ca.key'), '-subj', '/CN=kubeairunway-cluster-ca', '-days', DAYS, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', pki.caFile]);
  const names = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${CLUSTER_DOMAIN}`, 'localhost'];
  keyAndRequest(dir, 'apiserver', '/CN=kube-apiserver');
  sign(dir, 'apiserver', `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${[...names.map((n) => `DNS:${n}`), `IP:127.0.0.1`, `IP:${NODE_IP}`, `IP:${KUBERNETES_SERVICE_IP}`].join(',')}\n`);
  keyAndRequest(dir, 'apiserver-kubelet-client', '/O=system:masters/CN=kube-apiserver-kubelet-client');
  sign(dir, 'apiserver-kubelet-client', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  return pki;
}

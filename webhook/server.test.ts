import { Agent, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { allow, ADMISSION_API_VERSION, deny, type AdmissionRequest } from './admission.ts';
import { generateCertificates, hostsFrom, joinBundle, type CertificateSet } from './certificates.ts';
import { MUTATE_PATH, VALIDATE_PATH, VALIDATE_PROVIDER_CONFIG_PATH } from './registration.ts';
import { listenAdmission, type AdmissionServer, type ReviewRecord } from './server.ts';

const hosts = hostsFrom(['127.0.0.1', 'localhost']);
let server: AdmissionServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Reply {
  status: number;
  body: string;
  /** Fingerprint of the certificate the server presented. */
  fingerprint: string | undefined;
}

function post(port: number, path: string, body: unknown, ca: string, agent?: Agent, method = 'POST'): Promise<Reply> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, ca, agent: agent ?? false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const fingerprint = (res.socket as TLSSocket | null)?.getPeerCertificate?.()?.fingerprint256;
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (data += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: data, fingerprint }),
        );
      },
    );
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : payload);
  });
}

function review(uid: string, operation: AdmissionRequest['operation'] = 'CREATE'): unknown {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', request: { uid, operation, object: { spec: {} } } };
}

async function start(certs: CertificateSet, onReview?: (r: ReviewRecord) => void, maxBodyBytes?: number): Promise<AdmissionServer> {
  server = await listenAdmission({
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes,
    onReview,
    handlers: {
      validate: async (req) => allow(req.uid, ['validated']),
      mutate: async (req) => ({ ...allow(req.uid), patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') }),
      validateProviderConfig: async (req) => deny(req.uid, 'rule 1 does not compile'),
    },
  });
  server.setCertificate(certs.serving);
  return server;
}

describe('admission server', () => {
  it('answers AdmissionReviews on every route', async () => {
    const certs = await generateCertificates({ hosts, now: Date.now(), validityMs: 3600_000 });
    const records: ReviewRecord[] = [];
    const s = await start(certs, (r) => records.push(r));
    const v = await post(s.port, VALIDATE_PATH, review('a'), certs.caPem);
    expect(v.status).toBe(200);
    expect(JSON.parse(v.body)).toEqual({ apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response: { uid: 'a', allowed: true, warnings: ['validated'] } });
    const m = await post(s.port, MUTATE_PATH, review('b', 'UPDATE'), certs.caPem);
    expect(JSON.parse(m.body).response).toMatchObject({ uid: 'b', allowed: true, patchType: 'JSONPatch' });
    const p = await post(s.port, VALIDATE_PROVIDER_CONFIG_PATH, review('c'), certs.caPem);
    expect(JSON.parse(p.body).response).toMatchObject({ uid: 'c', allowed: false, status: { message: 'rule 1 does not compile' } });
    expect(records.map((r) => [r.path, r.operation, r.warnings, r.patched])).toEqual([
      [VALIDATE_PATH, 'CREATE', 1, []],
      [MUTATE_PATH, 'UPDATE', 0, []],
      [VALIDATE_PROVIDER_CONFIG_PATH, 'CREATE', 0, []],
    ]);
  });

  it('rejects what is not an AdmissionReview (the API server then applies failurePolicy)', async () => {
    const certs = await generateCertificates({ hosts, now: Date.now(), validityMs: 3600_000 });
    const s = await start(certs, undefined, 1024);
    expect((await post(s.port, VALIDATE_PATH, 'not json', certs.caPem)).status).toBe(400);
    expect((await post(s.port, VALIDATE_PATH, { kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1beta1', request: { uid: 'x' } }, certs.caPem)).status).toBe(400);
    expect((await post(s.port, VALIDATE_PATH, { kind: 'AdmissionReview', apiVersion: ADMISSION_API_VERSION }, certs.caPem)).status).toBe(400);
    expect((await post(s.port, VALIDATE_PATH, 'x'.repeat(4096), certs.caPem)).status).toBe(413);
    expect((await post(s.port, '/other', review('a'), certs.caPem)).status).toBe(404);
    expect((await post(s.port, VALIDATE_PATH, '', certs.caPem, undefined, 'GET')).status).toBe(405);
    expect((await post(s.port, '/healthz', '', certs.caPem, undefined, 'GET')).body).toBe('ok');
  });

  it('refuses TLS until it has a certificate', async () => {
    server = await listenAdmission({ host: '127.0.0.1', port: 0, handlers: { validate: async (r) => allow(r.uid), mutate: async (r) => allow(r.uid), validateProviderConfig: async (r) => allow(r.uid) } });
    const certs = await generateCertificates({ hosts, now: Date.now(), validityMs: 3600_000 });
    await expect(post(server.port, VALIDATE_PATH, review('a'), certs.caPem)).rejects.toThrow();
    server.setCertificate(certs.serving);
    expect((await post(server.port, VALIDATE_PATH, review('a'), certs.caPem)).status).toBe(200);
  });

  it('swaps certificates under load without failing a request', async () => {
    const first = await generateCertificates({ hosts, now: Date.now(), validityMs: 3600_000 });
    const second = await generateCertificates({ hosts, now: Date.now(), validityMs: 3600_000 });
    const s = await start(first);
    // The client trusts both CAs, as the API server does during the overlap.
    const ca = joinBundle([first.caPem, second.caPem]);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 4, ca });
    let swapped = false;
    const results: Reply[] = [];
    const loop = async (useAgent: boolean) => {
      for (let i = 0; i < 40; i++) results.push(await post(s.port, VALIDATE_PATH, review(`r${i}`), ca, useAgent ? keepAlive : undefined));
    };
    // The swap comes once some requests have been answered (not after a fixed pause, which a loaded
    // machine may spend on the first handshakes alone), with more than half of them still to come.
    const swap = (async () => {
      while (results.length < 20) await new Promise((r) => setTimeout(r, 1));
      s.setCertificate(second.serving);
      swapped = true;
    })();
    await Promise.all([loop(true), loop(true), loop(false), loop(false), swap]);
    keepAlive.destroy();
    expect(swapped).toBe(true);
    expect(results).toHaveLength(160);
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Both certificates were presented during the run: the swap happened under load.
    expect(new Set(results.map((r) => r.fingerprint)).size).toBe(2);
    // A new connection now gets the new certificate.
    const after = await post(s.port, VALIDATE_PATH, review('z'), second.caPem);
    expect(after.status).toBe(200);
    await expect(post(s.port, VALIDATE_PATH, review('z'), first.caPem)).rejects.toThrow();
  });
});

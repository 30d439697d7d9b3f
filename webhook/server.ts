// The HTTPS endpoint the API server calls. It knows routes and AdmissionReview framing only; what to
// answer comes from the handlers. The certificate can be swapped while serving: new connections get
// the new one, connections already open keep theirs, so a rotation cuts no request.

import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MalformedReviewError, parseReview, reviewOf, type AdmissionRequest, type AdmissionResponse } from './admission.ts';
import type { PemPair } from './certificates.ts';
import { MUTATE_PATH, VALIDATE_PATH, VALIDATE_PROVIDER_CONFIG_PATH } from './registration.ts';
import { listenOn } from '../observability/listen.ts';
import { messageOf } from '../contract/failure-types.ts';

export interface AdmissionHandlers {
  validate(req: AdmissionRequest): Promise<AdmissionResponse>;
  mutate(req: AdmissionRequest): Promise<AdmissionResponse>;
  /** InferenceProviderConfigs. */
  validateProviderConfig(req: AdmissionRequest): Promise<AdmissionResponse>;
}

export interface ReviewRecord {
  path: string;
  operation: string | undefined;
  namespace: string | undefined;
  name: string | undefined;
  allowed: boolean;
  warnings: number;
  /** JSON pointers the mutating answer patched. */
  patched: string[];
  durationMs: number;
}

export interface AdmissionServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  handlers: AdmissionHandlers;
  /** The API server sends an object and its old version, each at most ~3 MiB (etcd's request limit). */
  maxBodyBytes?: number;
  onReview?: (record: ReviewRecord) => void;
  onError?: (err: unknown) => void;
}

export interface AdmissionServer {
  readonly port: number;
  /** Serves `pair` on every connection opened from now on. */
  setCertificate(pair: PemPair): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop keeping the body but let it drain, so the client still reads the 413.
        req.off('data', onData);
        req.resume();
        reject(new HttpError(413, `request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function patchedPaths(patch: string | undefined): string[] {
  if (patch === undefined) return [];
  const ops = JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as { path: string }[];
  return ops.map((op) => op.path);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Listens before it has a certificate, so the port is known when the certificates and the webhook
 * registration (which names the URL) are set up; TLS handshakes fail until `setCertificate` is called,
 * and nobody calls a webhook that is not registered yet.
 */
export async function listenAdmission(opts: AdmissionServerOptions): Promise<AdmissionServer> {
  const limit = opts.maxBodyBytes ?? 8 * 1024 * 1024;
  const routes: Record<string, (req: AdmissionRequest) => Promise<AdmissionResponse>> = {
    [VALIDATE_PATH]: (r) => opts.handlers.validate(r),
    [MUTATE_PATH]: (r) => opts.handlers.mutate(r),
    [VALIDATE_PROVIDER_CONFIG_PATH]: (r) => opts.handlers.validateProviderConfig(r),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'https://webhook').pathname;
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) return send(res, 200, 'ok');
    const route = routes[path];
    if (!route) return send(res, 404, `no route for ${path}`);
    if (req.method !== 'POST') return send(res, 405, 'POST only');
    const started = performance.now();
    try {
      const body = await readBody(req, limit);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new HttpError(400, 'body is not JSON');
      }
      const request = parseReview(parsed);
      const response = await route(request);
      send(res, 200, reviewOf(response));
      opts.onReview?.({
        path,
        operation: request.operation,
        namespace: request.namespace,
        name: request.name,
        allowed: response.allowed,
        warnings: response.warnings?.length ?? 0,
        patched: patchedPaths(response.patch),
        durationMs: performance.now() - started,
      });
    } catch (err) {
      // Any non-200 makes the API server apply failurePolicy (Ignore): the object is admitted.
      const status = err instanceof HttpError ? err.status : err instanceof MalformedReviewError ? 400 : 500;
      if (status === 500) opts.onError?.(err);
      if (!res.headersSent) send(res, status, messageOf(err));
    }
  };

  const server: Server = createServer({ minVersion: 'TLSv1.2' }, (req, res) => {
    handle(req, res).catch((err) => opts.onError?.(err));
  });
  // A failed handshake (a scanner, a client that does not trust the CA yet) is the client's problem, not a server error.
  server.on('tlsClientError', () => undefined);

  const port = await listenOn(server, opts.port, opts.host);

  return {
    port,
    setCertificate(pair) {
      server.setSecureContext({ cert: pair.certPem, key: pair.keyPem, minVersion: 'TLSv1.2' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The API server keeps connections alive between calls; idle ones would hold close() open forever.
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 2_000);
        force.unref();
      }),
  };
}

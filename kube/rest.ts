import { Agent as HttpsAgent, request } from 'node:https';
import { Agent as HttpAgent, request as plainRequest, type RequestOptions } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';

const agents = new WeakMap<KubeConfig, HttpAgent>();
const credentials = new WeakMap<KubeConfig, { at: number; options: Promise<RequestOptions> }>();
/**
 * How long the kubeconfig's credentials (headers, TLS material) are reused: client-node decodes the
 * certificates and key again at every call, a measurable part of a burst's CPU. Short, so a refreshed
 * token (exec plugin, OIDC) is picked up within seconds.
 */
const CREDENTIALS_TTL_MS = 5_000;
/** Concurrent connections to the API server per process; client-go's default QPS limits are far below what this allows. */
const MAX_SOCKETS = 64;

/** A failed request, shaped like client-node's ApiException so `classifyKubeError` reads both alike. */
export class KubeHttpError extends Error {
  constructor(
    readonly code: number,
    readonly body: unknown,
  ) {
    const message = typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${code}`;
    super(message);
    this.name = 'KubeHttpError';
  }
}

/**
 * A minimal REST client over the kubeconfig's credentials: any path, any content type. Used where the
 * generated clients fall short (one code path for core and custom kinds, metadata-only reads).
 */
export class KubeRest {
  constructor(private readonly kc: KubeConfig) {}

  /**
   * One keep-alive connection pool per kubeconfig. client-node builds a new agent for every request,
   * so each one would open (and TLS-handshake) its own connection: most of a reconcile's CPU, on both
   * sides. Credentials are still applied per request (a token may be refreshed); only the pool is shared.
   */
  private agentFor(opts: RequestOptions, tls: boolean): HttpAgent {
    let agent = agents.get(this.kc);
    if (!agent) {
      const { ca, cert, key, pfx, passphrase, servername, rejectUnauthorized } = opts as RequestOptions & Record<string, never>;
      agent = tls
        ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, ca, cert, key, pfx, passphrase, servername, ...(rejectUnauthorized !== undefined ? { rejectUnauthorized } : {}) })
        : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
      agents.set(this.kc, agent);
    }
    return agent;
  }

  private credentials(): Promise<RequestOptions> {
    const cached = credentials.get(this.kc);
    if (cached && Date.now() - cached.at < CREDENTIALS_TTL_MS) return cached.options;
    const options: RequestOptions = { headers: {} };
    const applied = this.kc.applyToHTTPSOptions(options).then(() => options);
    credentials.set(this.kc, { at: Date.now(), options: applied });
    // A failure is not kept: the next request asks the kubeconfig again.
    applied.catch(() => credentials.delete(this.kc));
    return applied;
  }

  async request<T = unknown>(method: string, path: string, opts: { body?: unknown; contentType?: string; accept?: string; query?: Record<string, string | undefined> } = {}): Promise<T> {
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    const url = new URL(path, cluster.server);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const reqOpts: RequestOptions & { rejectUnauthorized?: boolean } = {
      method,
      headers: {
        accept: opts.accept ?? 'application/json',
        ...(payload !== undefined ? { 'content-type': opts.contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
      },
      timeout: 30_000,
    };
    const creds = await this.credentials();
    Object.assign(reqOpts, { ...creds, ...reqOpts, headers: { ...creds.headers, ...reqOpts.headers } });
    reqOpts.agent = this.agentFor(reqOpts, url.protocol !== 'http:');
    const send = url.protocol === 'http:' ? plainRequest : request;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = send(url, reqOpts, (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: data }));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (e.g. "404 page not found"): keep the text
    }
    if (status < 200 || status >= 300) throw new KubeHttpError(status, parsed);
    return parsed as T;
  }
}

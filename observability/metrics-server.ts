// The HTTP endpoint Prometheus scrapes (`/metrics`), plus `/healthz` for a liveness probe.

import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listenOn } from './listen.ts';

export interface MetricsServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** What `/healthz` reports: healthy, or the parts that are down (one per line). */
export interface HealthReport {
  ok: boolean;
  down: string[];
}

export async function startMetricsServer(opts: {
  registry: Registry;
  port: number;
  host?: string;
  onError?: (err: Error) => void;
  /** The process's own view of its dependencies; `/healthz` answers 503 naming what is down. Always ok when omitted. */
  health?: () => HealthReport;
}): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      const report = opts.health?.() ?? { ok: true, down: [] };
      if (report.ok) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      else res.writeHead(503, { 'content-type': 'text/plain' }).end(`unhealthy\n${report.down.map((d) => `down: ${d}\n`).join('')}`);
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics\n');
      return;
    }
    opts.registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': opts.registry.contentType }).end(body),
      (err: Error) => {
        opts.onError?.(err);
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`);
      },
    );
  });
  const host = opts.host ?? '0.0.0.0';
  const port = await listenOn(server, opts.port, host);
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    port,
    url: `http://${shown}:${port}/metrics`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// The informer set's account of lost watches (what `/healthz` reports), against a fake API server on
// loopback that lists, holds watches open, goes away and comes back refusing the first watch.
import { createServer, type Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InformerSet } from './informer-set.ts';

const MODEL_DEPLOYMENTS = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments' };

/** Lists answer an empty list; watches are held open, or refused with a 500 while `refuseWatches` lasts. */
class FakeApiServer {
  refuseWatches = 0;
  refused = 0;
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const watch = new URL(req.url ?? '/', 'http://fake').searchParams.get('watch') === 'true';
      if (watch && this.refuseWatches > 0) {
        this.refuseWatches--;
        this.refused++;
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"kind":"Status","message":"not ready"}');
      } else if (watch) {
        res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ metadata: { resourceVersion: '7' }, items: [] }));
      }
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  /** As a SIGKILL of the API server: every connection cut, nothing listening. */
  kill(): void {
    this.server?.close();
    this.server?.closeAllConnections();
    this.server = undefined;
  }
}

function kubeConfigFor(port: number): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'fake', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'fake' }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'fake' }],
    currentContext: 'fake',
  });
  return kc;
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('InformerSet.lost', () => {
  it('names a watch from its failure until its own watch is back, not when the server merely answers again', async () => {
    const api = new FakeApiServer();
    await api.start();
    const lines: string[] = [];
    const informers = new InformerSet(kubeConfigFor(api.port), (line) => lines.push(line));
    cleanup = async () => {
      await informers.stop();
      api.kill();
    };
    informers.collection('ModelDeployment', MODEL_DEPLOYMENTS);
    await informers.start();
    expect(informers.lost()).toEqual([]);

    api.kill();
    await vi.waitFor(() => expect(informers.lost()).toEqual([expect.stringMatching(/^ModelDeployment watch \(lost \d+s ago: .+\)$/)]));

    // The server is back and answers, but refuses the watch's first retry: the watch is still lost.
    api.refuseWatches = 1;
    await api.start();
    await vi.waitFor(() => expect(api.refused).toBe(1), { timeout: 5_000 });
    expect(informers.lost()).toHaveLength(1);

    await vi.waitFor(() => expect(informers.lost()).toEqual([]), { timeout: 10_000 });
    expect(lines).toEqual([expect.stringMatching(/^ModelDeployment watch lost \(.+\); retrying with backoff$/), expect.stringMatching(/^ModelDeployment watch back after \d+\.\ds$/)]);
  });
});

import { describe, expect, it } from 'vitest';
import { certificateHosts } from './index.ts';

describe('certificateHosts', () => {
  it('loopback URL for the local stack', () => {
    expect(certificateHosts('127.0.0.1', { url: 'https://127.0.0.1:1234' })).toEqual({ dnsNames: [], ipAddresses: ['127.0.0.1'] });
  });

  it('a Service in a cluster, listening on every address', () => {
    expect(certificateHosts('0.0.0.0', { service: { namespace: 'ns', name: 'wh' } }, ['wh.example.com'])).toEqual({
      dnsNames: ['wh.example.com', 'localhost', 'wh.ns.svc', 'wh.ns.svc.cluster.local', 'wh.ns', 'wh'],
      ipAddresses: ['127.0.0.1'],
    });
  });
});

describe('lineLogger', () => {
  it('writes one readable line per entry', async () => {
    const { lineLogger } = await import('./index.ts');
    const lines: string[] = [];
    const log = lineLogger((l) => lines.push(l));
    log.info({ url: 'https://127.0.0.1:1' }, 'admission webhook serving');
    log.error({ err: 'boom', skipped: undefined }, 'failed');
    expect(lines).toEqual(['webhook admission webhook serving (url=https://127.0.0.1:1)', 'webhook error: failed (err=boom)']);
  });
});

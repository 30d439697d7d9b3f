import { describe, expect, it } from 'vitest';
import { generateCertificates, hostsFrom } from './certificates.ts';
import { decodeSecretData, encodeSecretData } from './secret-store.ts';

describe('Secret data', () => {
  it('round-trips current, next and the bundle; tls.crt/tls.key hold the serving pair', async () => {
    const hosts = hostsFrom(['127.0.0.1']);
    const current = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    const next = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    const value = { current, next, bundle: [next.caPem, current.caPem] };
    const data = encodeSecretData(value);
    expect(Object.keys(data).sort()).toEqual(['ca-bundle.crt', 'ca.crt', 'next-ca.crt', 'next-tls.crt', 'next-tls.key', 'tls.crt', 'tls.key']);
    expect(Buffer.from(data['tls.crt']!, 'base64').toString()).toBe(current.serving.certPem);
    expect(decodeSecretData(data)).toEqual(value);
    const { next: _n, ...withoutNext } = value;
    expect(decodeSecretData(encodeSecretData(withoutNext))).toEqual(withoutNext);
  });

  it('incomplete data is no certificate set', () => {
    expect(decodeSecretData(undefined)).toBeUndefined();
    expect(decodeSecretData({ 'tls.crt': Buffer.from('x').toString('base64') })).toBeUndefined();
  });
});

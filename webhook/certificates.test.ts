import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { coversHosts, generateCertificates, hostsFrom, issuedBy, joinBundle, keyMatches, splitBundle, validityOf } from './certificates.ts';

const hosts = hostsFrom(['127.0.0.1', 'localhost', 'kubeairunway-webhook.kubeairunway-system.svc']);

describe('generateCertificates', () => {
  it('makes a CA and a serving certificate for every host', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const set = await generateCertificates({ hosts, now, validityMs: 3600_000 });
    const ca = new X509Certificate(set.caPem);
    const leaf = new X509Certificate(set.serving.certPem);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(issuedBy(set.serving.certPem, set.caPem)).toBe(true);
    expect(keyMatches(set.serving)).toBe(true);
    expect(coversHosts(set.serving.certPem, hosts)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:localhost, DNS:kubeairunway-webhook.kubeairunway-system.svc, IP Address:127.0.0.1');
    expect(leaf.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
    // Backdated a little for clock skew, valid for the requested time after `now`.
    expect(validityOf(set.serving.certPem)).toEqual({ notBefore: now - 5 * 60_000, notAfter: now + 3600_000 });
    expect(validityOf(set.caPem)).toEqual({ notBefore: now - 5 * 60_000, notAfter: now + 3600_000 });
  });

  it('each call makes a new CA; one CA does not vouch for another one\'s certificate', async () => {
    const a = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    const b = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    expect(a.caPem).not.toBe(b.caPem);
    expect(issuedBy(a.serving.certPem, b.caPem)).toBe(false);
    expect(keyMatches({ certPem: a.serving.certPem, keyPem: b.serving.keyPem })).toBe(false);
  });

  it('checks hosts exactly', async () => {
    const set = await generateCertificates({ hosts: hostsFrom(['127.0.0.1']), now: Date.now(), validityMs: 60_000 });
    expect(coversHosts(set.serving.certPem, hostsFrom(['127.0.0.1']))).toBe(true);
    expect(coversHosts(set.serving.certPem, hostsFrom(['127.0.0.2']))).toBe(false);
    expect(coversHosts(set.serving.certPem, hostsFrom(['localhost']))).toBe(false);
  });
});

describe('PEM helpers', () => {
  it('split and join bundles', async () => {
    const a = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    const b = await generateCertificates({ hosts, now: Date.now(), validityMs: 60_000 });
    const bundle = joinBundle([a.caPem, b.caPem]);
    expect(splitBundle(bundle)).toEqual([a.caPem, b.caPem]);
    expect(splitBundle(`junk\n${bundle.replaceAll('\n', '\r\n')}`).length).toBe(2);
    expect(splitBundle('')).toEqual([]);
  });

  it('garbage is no certificate', () => {
    expect(validityOf('nope')).toBeUndefined();
    expect(issuedBy('nope', 'nope')).toBe(false);
    expect(keyMatches({ certPem: 'a', keyPem: 'b' })).toBe(false);
    expect(coversHosts('nope', hosts)).toBe(false);
  });

  it('hostsFrom sorts IPs from names', () => {
    expect(hostsFrom(['::1', '127.0.0.1', 'a.b', 'a.b', ''])).toEqual({ dnsNames: ['a.b'], ipAddresses: ['::1', '127.0.0.1'] });
  });
});

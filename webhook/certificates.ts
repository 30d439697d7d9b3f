// The webhook's certificates: a private CA and a serving certificate it signs, generated in-process
// (no cert-manager). Each rotation makes a new CA together with a new serving certificate, so the CA's
// private key is needed only for that one signature and is never stored anywhere.

// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API
// before the library loads; this import must stay above it.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

// ECDSA P-256: fast to generate (milliseconds, against a second or more for RSA-2048 in a busy
// process) and accepted by the API server's Go TLS stack.
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** The API server and the webhook may disagree on the time by a little; a certificate valid from "now" would then be rejected. */
export const BACKDATE_MS = 5 * 60_000;

export interface PemPair {
  certPem: string;
  keyPem: string;
}

export interface CertificateSet {
  /** The CA certificate (PEM); its key was used once and thrown away. */
  caPem: string;
  serving: PemPair;
}

export interface Hosts {
  dnsNames: readonly string[];
  ipAddresses: readonly string[];
}

export interface GenerateOptions {
  hosts: Hosts;
  now: number;
  validityMs: number;
  /** Common name of the CA, for people reading the certificate. */
  caName?: string;
}

export async function generateCertificates(opts: GenerateOptions): Promise<CertificateSet> {
  const notBefore = new Date(opts.now - BACKDATE_MS);
  const notAfter = new Date(opts.now + opts.validityMs);
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${opts.caName ?? 'kubeairunway-webhook-ca'}`,
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const names = [
    ...opts.hosts.dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...opts.hosts.ipAddresses.map((value) => ({ type: 'ip' as const, value })),
  ];
  const leaf = await x509.X509CertificateGenerator.create({
    subject: `CN=${opts.hosts.dnsNames[0] ?? opts.hosts.ipAddresses[0] ?? 'kubeairunway-webhook'}`,
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    caPem: normalizePem(ca.toString('pem')),
    serving: { certPem: normalizePem(leaf.toString('pem')), keyPem: normalizePem(x509.PemConverter.encode(pkcs8, 'PRIVATE KEY')) },
  };
}

export interface Validity {
  notBefore: number;
  notAfter: number;
}

/**
 * When the certificate was made: notBefore without the backdating. Its lifetime is counted from here,
 * or a short-lived certificate (tests) would look a third spent the moment it is born.
 */
export function issuedAt(validity: Validity): number {
  return Math.min(validity.notBefore + BACKDATE_MS, validity.notAfter);
}

/** Validity of the first certificate in `pem`, or undefined when it is not a certificate. */
export function validityOf(pem: string): Validity | undefined {
  try {
    const cert = new X509Certificate(pem);
    return { notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo) };
  } catch {
    return undefined;
  }
}

/** Whether the serving certificate names every host the API server may call it by. */
export function coversHosts(certPem: string, hosts: Hosts): boolean {
  try {
    const cert = new X509Certificate(certPem);
    return hosts.dnsNames.every((h) => cert.checkHost(h) !== undefined) && hosts.ipAddresses.every((ip) => cert.checkIP(ip) !== undefined);
  } catch {
    return false;
  }
}

/** Whether `certPem` was signed by the CA in `caPem`. */
export function issuedBy(certPem: string, caPem: string): boolean {
  try {
    const cert = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    return cert.checkIssued(ca) && cert.verify(ca.publicKey);
  } catch {
    return false;
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function splitBundle(bundle: string): string[] {
  return (bundle.match(PEM_BLOCK) ?? []).map(normalizePem);
}

export function joinBundle(pems: readonly string[]): string {
  return pems.map(normalizePem).join('');
}

/** Sorts host names into DNS names and IP addresses, as a certificate's SAN needs them. */
export function hostsFrom(names: readonly string[]): Hosts {
  const unique = [...new Set(names.filter((n) => n !== ''))];
  return { dnsNames: unique.filter((n) => isIP(n) === 0), ipAddresses: unique.filter((n) => isIP(n) !== 0) };
}

/** Whether the key belongs to the certificate (a hand-edited Secret could pair them wrongly). */
export function keyMatches(pair: PemPair): boolean {
  try {
    return new X509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem));
  } catch {
    return false;
  }
}

/** One PEM block, trimmed and newline-terminated, so equal certificates compare equal as text. */
export function normalizePem(pem: string): string {
  return `${pem.trim()}\n`;
}

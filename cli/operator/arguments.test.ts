import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.ts';
import { checkDuration, parseBoolean, parsePort, parseService, resolveParts, splitList } from './run-parts.ts';
import { parseTarget } from './target.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';

describe('parseTarget', () => {
  it('reads NAMESPACE/NAME, and NAME in the -n or context namespace', () => {
    expect(parseTarget('team-a/llama', undefined)).toEqual({ namespace: 'team-a', name: 'llama' });
    expect(parseTarget('llama', 'team-b')).toEqual({ namespace: 'team-b', name: 'llama' });
    expect(parseTarget('llama', undefined, 'ctx-ns')).toEqual({ namespace: 'ctx-ns', name: 'llama' });
    expect(parseTarget('llama', undefined)).toEqual({ namespace: 'default', name: 'llama' });
    expect(parseTarget('team-a/llama', 'team-a')).toEqual({ namespace: 'team-a', name: 'llama' });
  });

  it('rejects malformed targets and a namespace given two different ways, in one sentence', () => {
    expect(() => parseTarget('a/b/c', undefined)).toThrow("Expected NAMESPACE/NAME or NAME, got 'a/b/c'.");
    expect(() => parseTarget('/x', undefined)).toThrow(CliError);
    expect(() => parseTarget('team-a/llama', 'team-b')).toThrow("'team-a/llama' names namespace 'team-a' but --namespace says 'team-b'.");
    expect(() => parseTarget('Team/llama', undefined)).toThrow("'Team' is not a valid namespace");
    expect(() => parseTarget('team/llama_8b', undefined)).toThrow("'llama_8b' is not a valid name");
  });
});

describe('resolveParts', () => {
  it('runs every part when none is named', () => {
    expect(resolveParts({})).toEqual({ core: true, watcher: true, providers: ['dynamo', 'kaito', 'kuberay'], webhook: false });
  });

  it('runs only the named parts', () => {
    expect(resolveParts({ core: true })).toEqual({ core: true, watcher: false, providers: [], webhook: false });
    expect(resolveParts({ providers: 'kaito, kuberay,kaito' })).toEqual({ core: false, watcher: false, providers: ['kaito', 'kuberay'], webhook: false });
    expect(resolveParts({ watcher: true, providers: 'dynamo' })).toEqual({ core: false, watcher: true, providers: ['dynamo'], webhook: false });
    // The webhook's own Deployment: `run --webhook` runs nothing else.
    expect(resolveParts({ webhook: true })).toEqual({ core: false, watcher: false, providers: [], webhook: true });
    expect(resolveParts({ core: true, watcher: true, webhook: true })).toEqual({ core: true, watcher: true, providers: [], webhook: true });
  });

  it('names unknown providers and refuses to run nothing', () => {
    expect(() => resolveParts({ providers: 'kaito,acme,foo' })).toThrow("Unknown providers 'acme', 'foo': the built-in providers are dynamo, kaito, kuberay.");
    expect(() => resolveParts({ providers: ',' })).toThrow('Nothing to run');
  });
});

describe('flag values', () => {
  it('parses the seed-style boolean --enable-provider-selector=false', () => {
    expect(parseBoolean('false')).toBe(false);
    expect(parseBoolean('TRUE')).toBe(true);
    expect(parseBoolean('0')).toBe(false);
    expect(() => parseBoolean('maybe')).toThrow("Expected true or false, got 'maybe'.");
  });

  it('checks ports, durations, services and lists', () => {
    expect(parsePort('9090', '--metrics-port')).toBe(9090);
    expect(parsePort('0', '--metrics-port')).toBe(0);
    expect(() => parsePort('70000', '--metrics-port')).toThrow('--metrics-port takes a port number from 0 to 65535');
    expect(checkDuration(' 5m ', '--resync-period')).toBe('5m');
    expect(checkDuration(undefined, '--resync-period')).toBeUndefined();
    expect(() => checkDuration('five', '--cleanup-timeout')).toThrow("--cleanup-timeout takes a duration such as 30s, 5m or 1h, got 'five'.");
    expect(parseService('kubeairunway-system/kubeairunway-webhook')).toEqual({ namespace: 'kubeairunway-system', name: 'kubeairunway-webhook' });
    expect(() => parseService('webhook')).toThrow('--webhook-service takes NAMESPACE/NAME');
    expect(splitList(' a, ,b ')).toEqual(['a', 'b']);
    expect(splitList(undefined)).toEqual([]);
  });
});

describe('temporalConnectionSettings', () => {
  const files: Record<string, string> = { 'ca.pem': 'CA', 'crt.pem': 'CRT', 'key.pem': 'KEY' };
  const io = { readFile: async (p: string) => (p in files ? files[p]! : Promise.reject(new Error('ENOENT: no such file'))) };
  const base = { temporalAddress: 'temporal:7233', temporalNamespace: 'prod' };

  it('is plain gRPC by default', async () => {
    expect(await temporalConnectionSettings(base, io)).toEqual({ address: 'temporal:7233', namespace: 'prod' });
  });

  it('turns TLS on with --temporal-tls or an API key alone', async () => {
    expect((await temporalConnectionSettings({ ...base, temporalTls: true }, io)).tls).toBe(true);
    expect(await temporalConnectionSettings({ ...base, temporalApiKey: 'k' }, io)).toEqual({ address: 'temporal:7233', namespace: 'prod', tls: true, apiKey: 'k' });
  });

  it('reads the CA and the client pair for mutual TLS', async () => {
    const settings = await temporalConnectionSettings({ ...base, temporalTlsCa: 'ca.pem', temporalTlsCert: 'crt.pem', temporalTlsKey: 'key.pem', temporalTlsServerName: 'temporal.internal' }, io);
    expect(settings.tls).toEqual({
      serverNameOverride: 'temporal.internal',
      serverRootCACertificate: Buffer.from('CA'),
      clientCertPair: { crt: Buffer.from('CRT'), key: Buffer.from('KEY') },
    });
  });

  it('says which file it cannot read, and that a certificate needs its key', async () => {
    await expect(temporalConnectionSettings({ ...base, temporalTlsCa: 'missing.pem' }, io)).rejects.toThrow('Cannot read the Temporal CA certificate missing.pem: ENOENT: no such file.');
    await expect(temporalConnectionSettings({ ...base, temporalTlsCert: 'crt.pem' }, io)).rejects.toThrow('--temporal-tls-cert and --temporal-tls-key go together');
  });
});

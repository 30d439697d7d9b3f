import { describe, expect, it } from 'vitest';
import { CliError } from '../../present/errors.ts';
import { checkDuration, gatewayDefaults, kindFlagValues, parseBoolean, parseCount, parsePort, parseService, resolveParts, splitList } from './run-parts.ts';
import { operatorKinds, resolveKind } from './kinds.ts';
import { describeTarget, parseTarget } from './target.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';

describe('parseTarget', () => {
  const plain = (t: ReturnType<typeof parseTarget>) => ({ kind: t.kind.kind, namespace: t.namespace, name: t.name });

  it('reads NAMESPACE/NAME, and NAME in the -n or context namespace, as a ModelDeployment', () => {
    expect(plain(parseTarget('team-a/llama', {}))).toEqual({ kind: 'ModelDeployment', namespace: 'team-a', name: 'llama' });
    expect(plain(parseTarget('llama', { namespace: 'team-b' }))).toEqual({ kind: 'ModelDeployment', namespace: 'team-b', name: 'llama' });
    expect(plain(parseTarget('llama', {}, 'ctx-ns'))).toEqual({ kind: 'ModelDeployment', namespace: 'ctx-ns', name: 'llama' });
    expect(plain(parseTarget('llama', {}))).toEqual({ kind: 'ModelDeployment', namespace: 'default', name: 'llama' });
    expect(plain(parseTarget('team-a/llama', { namespace: 'team-a' }))).toEqual({ kind: 'ModelDeployment', namespace: 'team-a', name: 'llama' });
  });

  it('reads KIND/NAMESPACE/NAME with the kind by name, plural or short name, in any case', () => {
    for (const kind of ['flamecluster', 'FlameCluster', 'flameclusters', 'fc', 'FC']) {
      expect(plain(parseTarget(`${kind}/default/my-flame`, {})), kind).toEqual({ kind: 'FlameCluster', namespace: 'default', name: 'my-flame' });
    }
    for (const kind of ['md', 'modeldeployment', 'ModelDeployments']) {
      expect(plain(parseTarget(`${kind}/default/llama`, {})), kind).toEqual({ kind: 'ModelDeployment', namespace: 'default', name: 'llama' });
    }
    expect(parseTarget('fc/team-a/x', {}).kind.collection).toEqual({ group: 'flame.xflops.io', version: 'v1alpha1', plural: 'flameclusters' });
    expect(parseTarget('md/team-a/x', {}).kind.collection).toEqual({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments' });
  });

  it('takes the kind from --kind for NAMESPACE/NAME and NAME, and checks it agrees with a KIND in the target', () => {
    expect(plain(parseTarget('default/my-flame', { kind: 'fc' }))).toEqual({ kind: 'FlameCluster', namespace: 'default', name: 'my-flame' });
    expect(plain(parseTarget('my-flame', { kind: 'FlameClusters', namespace: 'team-a' }))).toEqual({ kind: 'FlameCluster', namespace: 'team-a', name: 'my-flame' });
    expect(plain(parseTarget('flamecluster/a/b', { kind: 'fc' }))).toEqual({ kind: 'FlameCluster', namespace: 'a', name: 'b' });
    expect(() => parseTarget('md/a/b', { kind: 'fc' })).toThrow("'md/a/b' names kind ModelDeployment but --kind says FlameCluster.");
    expect(() => parseTarget('fc/a/b', { namespace: 'c' })).toThrow("'fc/a/b' names namespace 'a' but --namespace says 'c'.");
  });

  it('names the known kinds when a kind is unknown', () => {
    const known = 'the known kinds are ModelDeployment (modeldeployments, md), FlameCluster (flameclusters, fc), AsyncActor (asyncactors, asya, asyas), KybernateCheckpoint (kybernatecheckpoints, kcp), KybernateRestore (kybernaterestores, krs), KybernateWorkload (kybernateworkloads, kwl).';
    expect(() => parseTarget('pods/a/b', {})).toThrow(`Unknown kind 'pods': ${known}`);
    expect(() => parseTarget('a/b', { kind: 'Deployment' })).toThrow(`Unknown kind 'Deployment': ${known}`);
    expect(() => resolveKind('flame')).toThrow(CliError);
    expect(resolveKind('MD').kind).toBe('ModelDeployment');
  });

  it('rejects malformed targets and a namespace given two different ways, in one sentence', () => {
    expect(() => parseTarget('fc/a/b/c', {})).toThrow("Expected KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME, got 'fc/a/b/c'.");
    expect(() => parseTarget('/x', {})).toThrow(CliError);
    expect(() => parseTarget('fc//x', {})).toThrow(CliError);
    expect(() => parseTarget('team-a/llama', { namespace: 'team-b' })).toThrow("'team-a/llama' names namespace 'team-a' but --namespace says 'team-b'.");
    expect(() => parseTarget('Team/llama', {})).toThrow("'Team' is not a valid namespace");
    expect(() => parseTarget('team/llama_8b', {})).toThrow("'llama_8b' is not a valid name");
    expect(() => parseTarget('fc/team/My-Flame', {})).toThrow("'My-Flame' is not a valid name");
  });

  it('describes a target the way the commands take it back', () => {
    expect(describeTarget(parseTarget('team-a/llama', {}))).toBe('team-a/llama');
    expect(describeTarget(parseTarget('md/team-a/llama', {}))).toBe('team-a/llama');
    expect(describeTarget(parseTarget('fc/team-a/my-flame', {}))).toBe('flamecluster/team-a/my-flame');
    expect(describeTarget({ namespace: 'a', name: 'b' })).toBe('a/b');
  });
});

describe('operatorKinds', () => {
  it('are the registered kinds, known by their CRD names', () => {
    expect(operatorKinds().map((k) => [k.kind, k.names])).toEqual([
      ['ModelDeployment', ['modeldeployment', 'modeldeployments', 'md']],
      ['FlameCluster', ['flamecluster', 'flameclusters', 'fc']],
      ['AsyncActor', ['asyncactor', 'asyncactors', 'asya', 'asyas']],
      ['KybernateCheckpoint', ['kybernatecheckpoint', 'kybernatecheckpoints', 'kcp']],
      ['KybernateRestore', ['kybernaterestore', 'kybernaterestores', 'krs']],
      ['KybernateWorkload', ['kybernateworkload', 'kybernateworkloads', 'kwl']],
    ]);
  });

  it('find an object gone with its uid by the kind\'s search attributes', () => {
    expect(resolveKind('fc').presentation.workflowsByName('team-a', 'x')).toBe('Kind = "FlameCluster" AND K8sNamespace = "team-a" AND K8sName = "x"');
    // Histories recorded before other kinds existed carry no Kind: ModelDeployments keep their own attributes.
    expect(resolveKind('md').presentation.workflowsByName('team-a', 'x')).toBe('MdNamespace = "team-a" AND MdName = "x"');
  });
});

describe('resolveParts', () => {
  it('runs every part when none is named', () => {
    expect(resolveParts({})).toEqual({ core: true, watcher: true, providers: ['deployment', 'dynamo', 'kaito', 'kuberay'], webhook: false });
  });

  it('runs only the named parts', () => {
    expect(resolveParts({ core: true })).toEqual({ core: true, watcher: false, providers: [], webhook: false });
    expect(resolveParts({ providers: 'kaito, kuberay,kaito' })).toEqual({ core: false, watcher: false, providers: ['kaito', 'kuberay'], webhook: false });
    expect(resolveParts({ watcher: true, providers: 'dynamo' })).toEqual({ core: false, watcher: true, providers: ['dynamo'], webhook: false });
    // The webhook's own Deployment: `run --webhook` runs nothing else.
    expect(resolveParts({ webhook: true })).toEqual({ core: false, watcher: false, providers: [], webhook: true });
    expect(resolveParts({ core: true, watcher: true, webhook: true })).toEqual({ core: true, watcher: true, providers: [], webhook: true });
    // A kind's part named by its switch (Kybernate's node worker, a DaemonSet of its own): nothing else by default.
    expect(resolveParts({}, [{ flag: '--node', given: true }])).toEqual({ core: false, watcher: false, providers: [], webhook: false });
    expect(resolveParts({}, [{ flag: '--node', given: false }])).toEqual({ core: true, watcher: true, providers: ['deployment', 'dynamo', 'kaito', 'kuberay'], webhook: false });
  });

  it('names unknown providers and refuses to run nothing', () => {
    expect(() => resolveParts({ providers: 'kaito,acme,foo' })).toThrow("Unknown providers 'acme', 'foo': the built-in providers are deployment, dynamo, kaito, kuberay.");
    expect(() => resolveParts({ providers: ',' })).toThrow('Nothing to run');
    expect(() => resolveParts({ providers: ',' }, [{ flag: '--node', given: false }])).toThrow('Nothing to run: name at least one of --core, --watcher, --providers, --webhook, --node.');
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
    expect(parseCount('1000', '--workflow-cache')).toBe(1000);
    for (const bad of ['0', '-1', '1.5', 'many', '']) expect(() => parseCount(bad, '--workflow-cache')).toThrow(`--workflow-cache takes a whole number of at least 1, got '${bad}'.`);
    expect(splitList(' a, ,b ')).toEqual(['a', 'b']);
    expect(splitList(undefined)).toEqual([]);
  });

  it("reads the kind modules' flags by value name: a port checked into a number, the rest as given, those not given left out", () => {
    const flags = [
      { flag: '--activator-port <port>', value: 'port' as const, description: '' },
      { flag: '--node-name <name>', value: 'text' as const, description: '' },
      { flag: '--node', description: '' },
    ];
    expect(kindFlagValues({ activatorPort: '8480', nodeName: 'n1', node: true, metricsPort: '9090' }, flags)).toEqual({ activatorPort: 8480, nodeName: 'n1', node: true });
    expect(kindFlagValues({}, flags)).toEqual({});
    expect(() => kindFlagValues({ activatorPort: 'http' }, flags)).toThrow("--activator-port takes a port number from 0 to 65535, got 'http'.");
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

describe('routing flags', () => {
  it('take a Gateway, a backend and an endpoint picker, and refuse what they cannot use', () => {
    expect(gatewayDefaults({})).toEqual({ backend: 'auto' });
    expect(gatewayDefaults({ gatewayName: 'inference', gatewayNamespace: 'gateways', gatewayBackend: 'service', endpointPicker: '{name}-epp:9002' })).toEqual({
      backend: 'service',
      gateway: { name: 'inference', namespace: 'gateways' },
      endpointPicker: { name: '{name}-epp', port: 9002 },
    });
    expect(() => gatewayDefaults({ gatewayBackend: 'nginx' })).toThrow("--gateway-backend takes auto, service, inference-pool, got 'nginx'.");
    expect(() => gatewayDefaults({ gatewayNamespace: 'gateways' })).toThrow('--gateway-namespace needs --gateway-name.');
    expect(() => gatewayDefaults({ endpointPicker: 'epp' })).toThrow("--endpoint-picker takes NAME:PORT (NAME may hold {name}, the deployment's name), got 'epp'.");
  });
});

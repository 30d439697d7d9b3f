import { describe, expect, it } from 'vitest';
import type { KindModule, KindPart, RunFlagValues } from './kind-module.ts';
import { activatorPart, nodeWorkerPart } from './kybernate/parts.ts';
import { configuredParts, flagName, namesAPart, partSwitches } from './run-flags.ts';

const noStart = async () => ({ stop: async () => {} });

/** A part that asks for its `<name>Port` flag, optionally named by a switch. */
const part = (name: string, namedBy?: string): KindPart => ({
  name,
  about: name,
  module: `kinds/${name}.ts`,
  ...(namedBy ? { namedBy } : {}),
  configure: (flags: RunFlagValues) => (flags[`${name}Port`] !== undefined || (namedBy && flags[namedBy] === true) ? noStart : undefined),
});

const module = (name: string, parts: KindPart[], flags: string[]): KindModule => ({
  name,
  kinds: [],
  activities: async () => ({}),
  role: { folder: name, name, about: [], rules: [] },
  parts,
  flags: flags.map((flag) => ({ flag, description: '' })),
});

const modules = [module('a', [part('server')], ['--server-port <port>']), module('b', [part('agent', 'agent'), part('probe')], ['--agent', '--probe-port <port>'])];

describe("the kind modules' flags and parts", () => {
  it('names a flag as the command line parser does', () => {
    expect(flagName({ flag: '--activator-port <port>', description: '' })).toBe('activatorPort');
    expect(flagName({ flag: '--node', description: '' })).toBe('node');
    expect(flagName({ flag: '--amqp-url <url>', description: '' })).toBe('amqpUrl');
    expect(() => flagName({ flag: '--no-broker', description: '' })).toThrow('without --no-');
  });

  it('configures exactly the parts the flags ask for, in module order', () => {
    expect(configuredParts({}, modules)).toEqual([]);
    expect(configuredParts({ probePort: 1, serverPort: 2 }, modules).map((p) => p.name)).toEqual(['server', 'probe']);
    expect(configuredParts({ agent: true }, modules).map((p) => p.name)).toEqual(['agent']);
  });

  it('knows the switches that name a part of its own, and whether they are given', () => {
    expect(partSwitches({}, modules)).toEqual([{ name: 'agent', flag: '--agent', given: false }]);
    expect(namesAPart({ agent: true }, modules)).toBe(true);
    expect(namesAPart({ agent: false, serverPort: 1 }, modules)).toBe(false);
  });
});

describe("Kybernate's parts", () => {
  it('the node worker: only with --node, which needs the node name', () => {
    expect(nodeWorkerPart.configure({ nodeName: 'n1' })).toBeUndefined();
    expect(nodeWorkerPart.configure({ node: true, nodeName: 'n1' })).toBeTypeOf('function');
    expect(() => nodeWorkerPart.configure({ node: true })).toThrow("--node needs the node's name: --node-name or NODE_NAME (in a DaemonSet, from spec.nodeName).");
    expect(() => nodeWorkerPart.configure({ node: true, nodeName: '' })).toThrow('--node needs');
  });

  it('the activator: only with a port', () => {
    expect(activatorPart.configure({ activatorAddress: '127.0.0.1' })).toBeUndefined();
    expect(activatorPart.configure({ activatorPort: 0 })).toBeTypeOf('function');
    expect(() => activatorPart.configure({ activatorPort: '8480' })).toThrow("--activator-port takes a port number, got '8480'.");
  });
});

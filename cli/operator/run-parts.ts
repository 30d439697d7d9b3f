// Which parts of the controller `kubeairunway run` starts, from its flags. Pure, so the defaults (all
// parts when none is named) and the errors are tested without starting anything.

import type { RunFlag, RunFlagValues } from '../../kinds/kind-module.ts';
import { flagName } from '../../kinds/run-flags.ts';
import { CliError } from '../../present/errors.ts';
import { parseDuration } from '../../workflows/engine/durations.ts';
import type { GatewayDefaults } from '../../activities/provider/gateway-lookup.ts';

export const BUILTIN_PROVIDER_NAMES = ['deployment', 'dynamo', 'kaito', 'kuberay'] as const;

export interface PartFlags {
  core?: boolean;
  watcher?: boolean;
  providers?: string;
  webhook?: boolean;
}

export interface Parts {
  core: boolean;
  watcher: boolean;
  providers: string[];
  webhook: boolean;
}

/** A kind module's part named by a switch of its own (`--node`: a DaemonSet's process), and whether it was given. */
export interface PartSwitch {
  flag: string;
  given: boolean;
}

/**
 * No part named: the controller (core, watcher, every built-in provider), the webhook off (in a cluster
 * it is a Deployment of its own). Any part named: exactly those, so `run --webhook` is the webhook alone.
 * A kind's part named by its switch (`--node`) counts as named and is never in the default set; the
 * composition root starts it from the kinds' flags.
 */
export function resolveParts(flags: PartFlags, switches: readonly PartSwitch[] = []): Parts {
  const kindPartNamed = switches.some((s) => s.given);
  const named = flags.core !== undefined || flags.watcher !== undefined || flags.providers !== undefined || flags.webhook !== undefined || kindPartNamed;
  if (!named) return { core: true, watcher: true, providers: [...BUILTIN_PROVIDER_NAMES], webhook: false };
  const providers = splitList(flags.providers);
  const unknown = providers.filter((p) => !(BUILTIN_PROVIDER_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new CliError(`Unknown provider${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')}: the built-in providers are ${BUILTIN_PROVIDER_NAMES.join(', ')}.`);
  }
  const parts = { core: flags.core ?? false, watcher: flags.watcher ?? false, providers: [...new Set(providers)], webhook: flags.webhook ?? false };
  if (!parts.core && !parts.watcher && parts.providers.length === 0 && !parts.webhook && !kindPartNamed) {
    throw new CliError(`Nothing to run: name at least one of ${['--core', '--watcher', '--providers', '--webhook', ...switches.map((s) => s.flag)].join(', ')}.`);
  }
  return parts;
}

/**
 * The kind modules' flags as the command line gave them (commander's options, by value name), checked:
 * a `port` becomes a number, an error naming the flag otherwise. Flags not given are left out.
 */
export function kindFlagValues(options: Readonly<Record<string, unknown>>, flags: readonly RunFlag[]): RunFlagValues {
  const values: Record<string, string | number | boolean> = {};
  for (const flag of flags) {
    const name = flagName(flag);
    const value = options[name];
    if (value === undefined) continue;
    if (flag.value === 'port') values[name] = parsePort(String(value), flag.flag.split(' ')[0]!);
    else values[name] = typeof value === 'boolean' ? value : String(value);
  }
  return values;
}

/** `a,b, c` → ['a', 'b', 'c']; empty entries dropped. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `true`/`false` (and yes/no, 1/0) for flags written `--flag=false`, as in the seed. */
export function parseBoolean(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['true', 'yes', '1', 'on'].includes(v)) return true;
  if (['false', 'no', '0', 'off'].includes(v)) return false;
  throw new CliError(`Expected true or false, got '${value}'.`);
}

export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`${flag} takes a port number from 0 to 65535, got '${value}'.`);
  return port;
}

export function checkDuration(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (parseDuration(value) === undefined) throw new CliError(`${flag} takes a duration such as 30s, 5m or 1h, got '${value}'.`);
  return value.trim();
}

/** A whole number of at least 1, e.g. `--workflow-cache 1000`. */
export function parseCount(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new CliError(`${flag} takes a whole number of at least 1, got '${value}'.`);
  return n;
}

/** `--webhook-service NAMESPACE/NAME`: the Service the API server calls the webhook through. */
export function parseService(value: string): { namespace: string; name: string } {
  const [namespace, name, ...rest] = value.split('/');
  if (!namespace || !name || rest.length > 0) throw new CliError(`--webhook-service takes NAMESPACE/NAME, got '${value}'.`);
  return { namespace, name };
}

const GATEWAY_BACKENDS = ['auto', 'service', 'inference-pool'] as const;

/** The routing flags, checked: --gateway-name/--gateway-namespace, --gateway-backend, --endpoint-picker NAME:PORT. */
export function gatewayDefaults(opts: { gatewayName?: string; gatewayNamespace?: string; gatewayBackend?: string; endpointPicker?: string }): GatewayDefaults {
  const backend = opts.gatewayBackend ?? 'auto';
  if (!(GATEWAY_BACKENDS as readonly string[]).includes(backend)) throw new CliError(`--gateway-backend takes ${GATEWAY_BACKENDS.join(', ')}, got '${backend}'.`);
  if (opts.gatewayNamespace && !opts.gatewayName) throw new CliError('--gateway-namespace needs --gateway-name.');
  const picker = opts.endpointPicker ? parseEndpointPicker(opts.endpointPicker) : undefined;
  return {
    backend: backend as GatewayDefaults['backend'],
    ...(opts.gatewayName ? { gateway: { name: opts.gatewayName, ...(opts.gatewayNamespace ? { namespace: opts.gatewayNamespace } : {}) } } : {}),
    ...(picker ? { endpointPicker: picker } : {}),
  };
}

function parseEndpointPicker(value: string): { name: string; port: number } {
  const at = value.lastIndexOf(':');
  const name = at > 0 ? value.slice(0, at) : '';
  const port = Number(value.slice(at + 1));
  if (!name || !Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--endpoint-picker takes NAME:PORT (NAME may hold {name}, the deployment's name), got '${value}'.`);
  return { name, port };
}

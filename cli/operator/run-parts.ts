// Which parts of the controller `kubeairunway run` starts, from its flags. Pure, so the defaults (all
// parts when none is named) and the errors are tested without starting anything.

import { CliError } from '../errors.ts';
import { parseDuration } from './durations.ts';

export const BUILTIN_PROVIDER_NAMES = ['dynamo', 'kaito', 'kuberay'] as const;

export interface PartFlags {
  core?: boolean;
  watcher?: boolean;
  providers?: string;
  webhook?: boolean;
  node?: boolean;
}

export interface Parts {
  core: boolean;
  watcher: boolean;
  providers: string[];
  webhook: boolean;
  /** The node worker beside containerd (a DaemonSet's process, never part of the default). */
  node: boolean;
}

/**
 * No part named: the controller (core, watcher, every built-in provider), the webhook off (in a cluster
 * it is a Deployment of its own). Any part named: exactly those, so `run --webhook` is the webhook alone.
 */
export function resolveParts(flags: PartFlags): Parts {
  const named = flags.core !== undefined || flags.watcher !== undefined || flags.providers !== undefined || flags.webhook !== undefined || flags.node !== undefined;
  if (!named) return { core: true, watcher: true, providers: [...BUILTIN_PROVIDER_NAMES], webhook: false, node: false };
  const providers = splitList(flags.providers);
  const unknown = providers.filter((p) => !(BUILTIN_PROVIDER_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new CliError(`Unknown provider${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')}: the built-in providers are ${BUILTIN_PROVIDER_NAMES.join(', ')}.`);
  }
  const parts = { core: flags.core ?? false, watcher: flags.watcher ?? false, providers: [...new Set(providers)], webhook: flags.webhook ?? false, node: flags.node ?? false };
  if (!parts.core && !parts.watcher && parts.providers.length === 0 && !parts.webhook && !parts.node) throw new CliError('Nothing to run: name at least one of --core, --watcher, --providers, --webhook, --node.');
  return parts;
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

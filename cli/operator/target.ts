// The target argument of the operator commands: KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME.

import { CliError } from '../../present/errors.ts';
import { DEFAULT_KIND, operatorKinds, resolveKind, type OperatorKind } from './kinds.ts';

export interface Target {
  namespace: string;
  name: string;
}

/** A target with the kind it names. */
export interface KindTarget extends Target {
  kind: OperatorKind;
}

/** The flags that complete a target: `-n` for a bare NAME, `--kind` for a target without one. */
export interface TargetFlags {
  namespace?: string;
  kind?: string;
}

// RFC 1123: what Kubernetes accepts as a namespace or object name.
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * `KIND/NAMESPACE/NAME`, `NAMESPACE/NAME`, or `NAME` in the namespace given with -n (or the kubeconfig
 * context's). KIND is a kind's name, plural or short name, in any case; without one the target is the
 * --kind's, else a ModelDeployment (what the commands took before there were other kinds). A namespace
 * or kind given both ways must agree, so a typo never acts on another object.
 */
export function parseTarget(arg: string, flags: TargetFlags, contextNamespace = 'default', kinds: readonly OperatorKind[] = operatorKinds()): KindTarget {
  const parts = arg.split('/');
  if (parts.length > 3 || parts.some((p) => p === '')) throw new CliError(`Expected KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME, got '${arg}'.`);
  const flagKind = flags.kind === undefined ? undefined : resolveKind(flags.kind, kinds);
  let kind = flagKind ?? resolveKind(DEFAULT_KIND, kinds);
  if (parts.length === 3) {
    kind = resolveKind(parts.shift()!, kinds);
    if (flagKind && flagKind !== kind) throw new CliError(`'${arg}' names kind ${kind.kind} but --kind says ${flagKind.kind}.`);
  }
  const [first, second] = parts as [string, string | undefined];
  const target = second === undefined ? { namespace: flags.namespace ?? contextNamespace, name: first } : { namespace: first, name: second };
  if (second !== undefined && flags.namespace !== undefined && flags.namespace !== first) {
    throw new CliError(`'${arg}' names namespace '${first}' but --namespace says '${flags.namespace}'.`);
  }
  for (const [what, value] of [['namespace', target.namespace], ['name', target.name]] as const) {
    if (!NAME.test(value) || value.length > 253) throw new CliError(`'${value}' is not a valid ${what} (lower-case letters, digits, '-' and '.').`);
  }
  return { kind, ...target };
}

/**
 * How messages name a target, in the form the commands take back: `NAMESPACE/NAME` for a ModelDeployment
 * (as always), `flamecluster/NAMESPACE/NAME` for another kind.
 */
export function describeTarget(t: Target & { kind?: Pick<OperatorKind, 'kind'> }): string {
  const prefix = t.kind && t.kind.kind !== DEFAULT_KIND ? `${t.kind.kind.toLowerCase()}/` : '';
  return `${prefix}${t.namespace}/${t.name}`;
}

/** Namespace and name alone: what reports print (the kind is a field of its own). */
export function plainTarget(t: Target): Target {
  return { namespace: t.namespace, name: t.name };
}

// The NAMESPACE/NAME argument of the operator commands.

import { CliError } from '../errors.ts';

export interface Target {
  namespace: string;
  name: string;
}

// RFC 1123: what Kubernetes accepts as a namespace or ModelDeployment name.
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * `NAMESPACE/NAME`, or `NAME` in the namespace given with -n (or the kubeconfig context's). A namespace
 * given both ways must agree, so a typo never acts on another namespace.
 */
export function parseTarget(arg: string, namespace: string | undefined, contextNamespace = 'default'): Target {
  const parts = arg.split('/');
  if (parts.length > 2 || parts.some((p) => p === '')) throw new CliError(`Expected NAMESPACE/NAME or NAME, got '${arg}'.`);
  const [first, second] = parts as [string, string | undefined];
  const target = second === undefined ? { namespace: namespace ?? contextNamespace, name: first } : { namespace: first, name: second };
  if (second !== undefined && namespace !== undefined && namespace !== first) {
    throw new CliError(`'${arg}' names namespace '${first}' but --namespace says '${namespace}'.`);
  }
  for (const [what, value] of [['namespace', target.namespace], ['name', target.name]] as const) {
    if (!NAME.test(value) || value.length > 253) throw new CliError(`'${value}' is not a valid ${what} (lower-case letters, digits, '-' and '.').`);
  }
  return target;
}

export function describeTarget(t: Target): string {
  return `${t.namespace}/${t.name}`;
}

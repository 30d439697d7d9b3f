// Dynamic CRD version detection (seed 001 §4.10): the caller lists the versions the cluster serves for
// the provider's group and kind; the provider renders the first of its own versions that is served.

import type { ProviderResourceType } from '../contract.ts';

export class UnsupportedApiVersionError extends Error {
  override readonly name = 'UnsupportedApiVersionError';
  constructor(
    readonly kind: string,
    readonly apiVersion: string,
    readonly supported: readonly string[],
  ) {
    super(`${kind} ${apiVersion} is not supported; supported versions: ${supported.join(', ')}`);
  }
}

export type VersionChoice = { apiVersion: string } | { error: string };

/** `served` are the CRD's served versions, e.g. ['v1beta1']; the result is in `group/version` form. */
export function chooseApiVersion(resource: ProviderResourceType, served: readonly string[]): VersionChoice {
  const version = resource.versions.find((v) => served.includes(v));
  if (version !== undefined) return { apiVersion: `${resource.group}/${version}` };
  const installed = served.length > 0 ? served.map((v) => `${resource.group}/${v}`).join(', ') : 'none';
  const known = resource.versions.map((v) => `${resource.group}/${v}`).join(', ');
  return { error: `Unsupported ${resource.kind} schema version (installed: ${installed}; supported: ${known})` };
}

/** Guard used at the top of every render. */
export function assertSupportedApiVersion(resource: ProviderResourceType, apiVersion: string): void {
  const supported = resource.versions.map((v) => `${resource.group}/${v}`);
  if (!supported.includes(apiVersion)) throw new UnsupportedApiVersionError(resource.kind, apiVersion, supported);
}

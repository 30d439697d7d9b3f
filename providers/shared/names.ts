// Names of additional objects are derived from the ModelDeployment name. Object names may be up to 253
// characters; a derived name that would exceed that keeps a stable hash of the full name instead.

import { fnv1a32 } from './label-value.ts';

const MAX_NAME = 253;

export function childName(base: string, suffix: string): string {
  const name = `${base}-${suffix}`;
  if (name.length <= MAX_NAME) return name;
  const hash = fnv1a32(base).toString(16).padStart(8, '0');
  const room = MAX_NAME - suffix.length - hash.length - 2;
  return `${base.slice(0, room).replace(/[-.]+$/, '')}-${hash}-${suffix}`;
}

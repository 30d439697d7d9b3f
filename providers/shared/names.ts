// Names of the objects a provider renders, derived from the ModelDeployment name.
//
// A ModelDeployment name may be any DNS-1123 subdomain (253 characters, dots allowed), but the upstream
// operators derive Service, StatefulSet and label values from their resource's name, and those must be
// DNS-1035 labels of at most 63 characters. Each provider therefore states the longest resource name its
// operator can take (`maxLength`), and a ModelDeployment name that does not fit is turned into one that
// does: invalid characters become '-', it is truncated and a stable hash of the whole name is appended.
// Pure: the same name always gives the same result, so rendering stays byte-stable; a name that already
// fits is used unchanged.

import { fnv1a32 } from './label-value.ts';

const MAX_NAME = 253;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const HASH_LENGTH = 8;

function hashOf(text: string): string {
  return fnv1a32(text).toString(16).padStart(HASH_LENGTH, '0');
}

/** Whether `name` can be used as is for a provider resource whose operator takes at most `maxLength`. */
export function fitsResourceName(name: string, maxLength: number): boolean {
  return name.length <= maxLength && DNS_1035_LABEL.test(name);
}

/**
 * The provider resource's name for a ModelDeployment named `name`: `name` itself when it is a DNS-1035
 * label of at most `maxLength` characters, otherwise `<head>-<hash>` where head keeps the readable start
 * of the name ('.' and other invalid characters as '-', starting with a letter) and hash is 8 hex digits
 * of FNV-1a over the whole name, so two names that share a start still get different results.
 */
export function providerResourceName(name: string, maxLength: number): string {
  if (fitsResourceName(name, maxLength)) return name;
  const hash = hashOf(name);
  let head = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-');
  // DNS-1035: the first character is a letter. "3b-chat" becomes "md-3b-chat-<hash>".
  if (!/^[a-z]/.test(head)) head = `md-${head}`;
  head = head.slice(0, Math.max(0, maxLength - HASH_LENGTH - 1)).replace(/-+$/, '');
  return head.length > 0 ? `${head}-${hash}` : `md-${hash}`.slice(0, maxLength);
}

/** A reason for the render warning when the resource name differs from the ModelDeployment name. */
export function renamedWarning(kind: string, name: string, resourceName: string, maxLength: number): string {
  return `metadata.name '${name}' is not a DNS-1035 label of at most ${maxLength} characters, which ${kind} names must be (its operator derives Service and pod names from them): the ${kind} is named '${resourceName}'`;
}

/** Name of an additional object (e.g. a ConfigMap): `<base>-<suffix>`, hash-shortened past 253 characters. */
export function childName(base: string, suffix: string): string {
  const name = `${base}-${suffix}`;
  if (name.length <= MAX_NAME) return name;
  const hash = hashOf(base);
  const room = MAX_NAME - suffix.length - hash.length - 2;
  return `${base.slice(0, room).replace(/[-.]+$/, '')}-${hash}-${suffix}`;
}

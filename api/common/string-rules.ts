// The string rules (api/common/checks.ts StringRules) that fields of several kinds share: the same
// pattern, bounds and wording wherever an image, a command, a DNS label or an object name is asked for.
// Their patterns are those the CRD schemas carry (./patterns.ts). Pure.

import type { StringRules } from './checks.ts';
import { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, MAX_URL_LENGTH, NO_WHITESPACE_PATTERN, OBJECT_NAME_PATTERN, URL_PATH_PATTERN } from './patterns.ts';

const NO_WHITESPACE = new RegExp(NO_WHITESPACE_PATTERN);
const DNS_LABEL = new RegExp(DNS_LABEL_PATTERN);
const OBJECT_NAME = new RegExp(OBJECT_NAME_PATTERN);
const URL_PATH = new RegExp(URL_PATH_PATTERN);

export const IMAGE_RULES: StringRules = { pattern: NO_WHITESPACE, what: 'an image reference without whitespace', minLength: 1 };
export const COMMAND_RULES: StringRules = { pattern: NO_WHITESPACE, what: 'a command without whitespace', minLength: 1 };
export const URL_PATH_RULES: StringRules = { pattern: URL_PATH, what: "a path starting with '/', without whitespace", maxLength: MAX_URL_LENGTH };

/** A DNS-1123 label; `what` says what it names, e.g. "a container name (DNS-1123 label)". */
export function dnsLabelRules(what = 'a DNS-1123 label'): StringRules {
  return { pattern: DNS_LABEL, what, minLength: 1, maxLength: MAX_DNS_LABEL_LENGTH };
}

/** A DNS-1123 subdomain; `what` says what it names, e.g. "a pod name (DNS-1123 subdomain)". */
export function objectNameRules(what = 'a DNS-1123 subdomain'): StringRules {
  return { pattern: OBJECT_NAME, what, minLength: 1, maxLength: MAX_OBJECT_NAME_LENGTH };
}

// Builders of the leaf schemas every CRD writes the same way (strings, 32-bit integers, booleans, enums,
// images, timestamps, ports), so a kind's schema file states only its fields and their words. Each is a
// typed schema (api/schema/typed.ts): the kind's types derive from it.

import { NO_WHITESPACE_PATTERN } from '../common/patterns.ts';
import { int, str, type Extra, type NoExtra } from '../schema/typed.ts';

export { bool, enumOf, int, str } from '../schema/typed.ts';

/** An image reference: no whitespace anywhere (the kubelet rejects leading or trailing spaces). */
export const image = <const E extends Extra = NoExtra>(description: string, extra?: E) =>
  str(description, { minLength: 1, pattern: NO_WHITESPACE_PATTERN, what: 'an image reference without whitespace', ...(extra as E) });
export const timestamp = (description: string) => str(description, { format: 'date-time' });
export const port = <const E extends Extra = NoExtra>(description: string, extra?: E) => int(description, 1, { maximum: 65535, ...(extra as E) });

// Builders of the leaf schemas every CRD writes the same way (strings, 32-bit integers, booleans, enums,
// images, timestamps, ports), so a kind's schema file states only its fields and their words.

import { MAX_SHORT_STRING, NO_WHITESPACE_PATTERN } from '../common/patterns.ts';
import type { JSONSchemaProps } from './schema-types.ts';

export const str = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', description, ...extra });
export const int = (description: string, minimum: number, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'integer', format: 'int32', minimum, description, ...extra });
export const bool = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'boolean', description, ...extra });
/** Bounded in length, so CEL rules that compare it stay within the API server's cost budget. */
export const enumOf = (values: readonly string[], description: string, extra: JSONSchemaProps = {}): JSONSchemaProps =>
  str(description, { enum: [...values], maxLength: MAX_SHORT_STRING, ...extra });
/** An image reference: no whitespace anywhere, as the validators' IMAGE_RULES (api/common/string-rules.ts). */
export const image = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => str(description, { minLength: 1, pattern: NO_WHITESPACE_PATTERN, ...extra });
export const timestamp = (description: string): JSONSchemaProps => str(description, { format: 'date-time' });
export const port = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => int(description, 1, { maximum: 65535, ...extra });

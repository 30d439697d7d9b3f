// The output choice every operator command offers: a table (or text) for people, JSON or YAML for scripts.

import { createRequire } from 'node:module';
import type { stringify as stringifyType } from 'yaml';
import { Option } from 'commander';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OperatorOutput = (typeof OUTPUT_FORMATS)[number];

export function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format: a table for people, json or yaml for scripts').choices(OUTPUT_FORMATS).default('table');
}

/** JSON or YAML of a plain value; undefined fields are dropped, as JSON would. */
export function formatStructured(value: unknown, format: 'json' | 'yaml'): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  // Loaded here, synchronously, not with the module: about 40 ms of CPU that a table never needs.
  const { stringify } = createRequire(import.meta.url)('yaml') as { stringify: typeof stringifyType };
  return stringify(JSON.parse(JSON.stringify(value)), { lineWidth: 0 });
}

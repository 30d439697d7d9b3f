// Output helpers shared by the commands.

import { stringify } from 'yaml';
import type { Issue, ValidationResult } from '../api/types.ts';

export type OutputFormat = 'yaml' | 'json';

/** Indented "error   field: message" lines, errors first. */
export function issueLines(result: ValidationResult, indent = '  '): string {
  const line = (label: string) => (issue: Issue) => `${indent}${label} ${issue.field}: ${issue.message}\n`;
  return result.errors.map(line('error  ')).join('') + result.warnings.map(line('warning')).join('');
}

export function countIssues(result: ValidationResult): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(result.errors.length, 'error'), plural(result.warnings.length, 'warning')].join(', ');
}

/** Objects as a YAML stream (one document each) or JSON (one object, or a v1 List for several). */
export function formatObjects(objects: readonly unknown[], format: OutputFormat): string {
  if (format === 'json') {
    const value = objects.length === 1 ? objects[0] : { apiVersion: 'v1', kind: 'List', items: objects };
    return `${JSON.stringify(value, null, 2)}\n`;
  }
  return objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

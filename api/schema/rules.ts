// The CRD's own CEL rules (x-kubernetes-validations) evaluated offline with the CEL library the
// selection rules use, on the node as the API server stores it (./stored.ts): the offline validator
// refuses what admission refuses, in the rule's own message. A rule that cannot evaluate (a field of the
// wrong type, reported already by its own check) counts as holding: one problem, one message. Pure.

import { parse } from '@marcbachmann/cel-js';
import type { CelValidationRule, JSONSchemaProps } from '../crd/schema-types.ts';
import { stored } from './stored.ts';

type Program = ReturnType<typeof parse>;
const programs = new Map<string, Program>();

function program(rule: string): Program {
  let compiled = programs.get(rule);
  if (!compiled) programs.set(rule, (compiled = parse(rule)));
  return compiled;
}

function holds(rule: string, self: unknown): boolean {
  try {
    return program(rule)({ self }) !== false;
  } catch {
    return true;
  }
}

/** The rules of `schema` that `value` (a present node) breaks. */
export function failedRules(schema: JSONSchemaProps, value: unknown): CelValidationRule[] {
  const rules = schema['x-kubernetes-validations'];
  if (!rules) return [];
  const self = stored(value, schema);
  return rules.filter((r) => !holds(r.rule, self));
}

// The CRD's own CEL rules (x-kubernetes-validations) evaluated offline with the CEL library the
// selection rules use, on the node as the API server stores it (./stored.ts): the offline validator
// refuses what admission refuses, in the rule's own message. A rule that reads a field whose own check
// failed, or that cannot evaluate, counts as holding: one problem, one message (a malformed field still
// counts as present for has()). Pure.

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

const reads = new Map<string, string[]>();

/**
 * The paths (relative to self, as `.a.b`) whose values a rule reads: every field it names, and every
 * object it looks into; `has(self.a.b)` reads `.a` but only tests `.a.b` for presence.
 */
function readPaths(rule: string): string[] {
  let paths = reads.get(rule);
  if (paths) return paths;
  paths = [];
  for (const [, has, chain] of rule.matchAll(/(has\()?self((?:\.\w+)+)/g)) {
    const segments = chain!.split('.').slice(1);
    const last = has ? segments.length - 1 : segments.length;
    for (let i = 1; i <= last; i++) paths.push(`.${segments.slice(0, i).join('.')}`);
  }
  reads.set(rule, paths);
  return paths;
}

/** The rules of `schema` that `value` (a present node) breaks; `failed` says whether a field below it (`.a.b`) failed its own check. */
export function failedRules(schema: JSONSchemaProps, value: unknown, failed: (path: string) => boolean = () => false): CelValidationRule[] {
  const rules = schema['x-kubernetes-validations'];
  if (!rules) return [];
  const self = stored(value, schema);
  return rules.filter((r) => !readPaths(r.rule).some(failed) && !holds(r.rule, self));
}

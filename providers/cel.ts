// A small wrapper around @marcbachmann/cel-js for selection rules. Rules see one variable, `spec`: the
// ModelDeployment spec as JSON, read as the API server reads it: a whole number is a CEL int, any
// other number a double (so `spec.resources.gpu.count - 1` is int arithmetic, not "no such overload";
// ints and doubles still compare with each other, as in cel-go).
// Compiled programs are cached by expression text: the same few rules run for every deployment.
//
// A rule that cannot be compiled, does not type-check as a boolean, or fails while evaluating (most
// often "No such key" when it reads a field the spec omits, exactly like cel-go) does not match;
// the outcome carries the reason so selection can explain it.

import { Environment } from '@marcbachmann/cel-js';
import { canonicalize } from './shared/canonical.ts';

export type RuleOutcome = { matched: boolean; error?: undefined } | { matched: false; error: string };

type Program = (context: Record<string, unknown>) => unknown;
type Compiled = { program: Program; error?: undefined } | { program?: undefined; error: string };

const environment = new Environment().registerVariable('spec', 'map');

const MAX_CACHED = 1024;
const cache = new Map<string, Compiled>();

export function compileRule(expression: string): Compiled {
  const cached = cache.get(expression);
  if (cached) return cached;
  const compiled = compile(expression);
  // Rules come from cluster objects; a bound keeps a stream of distinct expressions from growing memory.
  if (cache.size >= MAX_CACHED) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(expression, compiled);
  return compiled;
}

/** Evaluates a rule against a spec. Never throws. */
export function evaluateRule(expression: string, spec: unknown): RuleOutcome {
  const compiled = compileRule(expression);
  if (compiled.error !== undefined) return { matched: false, error: compiled.error };
  let result: unknown;
  try {
    // Inside the try: a spec nested deeper than the stack allows (the API server stores up to 10,000
    // levels under provider.overrides) is a rule that fails to evaluate, not a failed selection.
    const value = withCelInts(canonicalize(spec));
    const context = { spec: value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {} };
    result = compiled.program(context);
  } catch (error) {
    return { matched: false, error: describeError(error) };
  }
  if (typeof result !== 'boolean') return { matched: false, error: `evaluated to ${typeName(result)}, not a bool` };
  return { matched: result };
}

/** JSON's whole numbers as CEL ints (cel-js takes BigInts), the way Kubernetes decodes unstructured JSON. */
function withCelInts(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(withCelInts);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withCelInts(v)]));
  return value;
}

/** Number of cached programs; for tests of the cache. */
export function cachedRuleCount(): number {
  return cache.size;
}

function compile(expression: string): Compiled {
  try {
    const parsed = environment.parse(expression);
    const checked = parsed.check();
    if (!checked.valid) return { error: describeError(checked.error) };
    if (checked.type !== 'bool' && checked.type !== 'dyn') return { error: `condition has type ${checked.type}, not bool` };
    return { program: parsed };
  } catch (error) {
    return { error: describeError(error) };
  }
}

function describeError(error: unknown): string {
  if (error && typeof error === 'object') {
    const summary = (error as { summary?: unknown }).summary;
    if (typeof summary === 'string' && summary.length > 0) return summary;
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.length > 0) return message.split('\n')[0] ?? message;
  }
  return String(error);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a double';
  if (typeof value === 'object') return 'a map';
  return `a ${typeof value}`;
}

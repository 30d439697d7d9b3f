// A typed schema: an OpenAPI node of a CRD (JSONSchemaProps, emitted as is into deploy/crds/) that also
// carries, at compile time only, the TypeScript type of the values it admits. A kind declares its spec
// once with these builders; its types are `Static<typeof schema>`, its validator is the one interpreter
// (./check.ts) and its CRD is the same object serialized. Pure (no imports beyond types).
//
// What the CRD cannot say but a message needs ("must be a DNS-1123 label", a list's own wording) sits
// beside the node in `words`, never in the emitted JSON.

import type { JSONSchemaProps } from '../crd/schema-types.ts';

declare const STATIC: unique symbol;

/**
 * A schema node whose values have type T; D says whether it has a default (so a checked object always
 * holds it); G is the type of what a manifest may give (before defaults: a defaulted field may be left out).
 */
export type Schema<T = unknown, D extends boolean = boolean, G = T> = JSONSchemaProps & { readonly [STATIC]?: { type: T; defaulted: D; given: G } };

/** The type of the values a schema admits (after defaults). */
export type Static<S> = S extends { readonly [STATIC]?: { type: infer T; defaulted: boolean; given: unknown } } ? T : unknown;

/** The type of what a manifest may give for a schema: as `Static`, with every defaulted field optional too. */
export type Given<S> = S extends { readonly [STATIC]?: { type: unknown; defaulted: boolean; given: infer G } } ? G : unknown;

type IsDefaulted<S> = S extends { readonly [STATIC]?: { type: unknown; defaulted: infer D; given: unknown } } ? D : false;
type HasDefault<E> = E extends { default: unknown } ? true : false;
/** The values a string node admits: its `enum`'s when it has one. */
type StringOf<E> = E extends { enum: readonly (infer V extends string)[] } ? V : string;
type Flat<T> = { [K in keyof T]: T[K] };
type Present<P, R> = { [K in keyof P]: K extends R ? K : IsDefaulted<P[K]> extends true ? K : never }[keyof P];

/** An object of `properties`: the required ones, and those with a default, always present; the others optional. */
export type ObjectOf<P, R> = Flat<{ [K in Present<P, R>]: Static<P[K]> } & { [K in Exclude<keyof P, Present<P, R>>]?: Static<P[K]> }>;
/** What a manifest may give for an object of `properties`: the required ones present, the others optional. */
export type GivenObjectOf<P, R> = Flat<{ [K in keyof P & R]: Given<P[K]> } & { [K in Exclude<keyof P, R>]?: Given<P[K]> }>;

/** How the validator words a problem the schema alone cannot name. */
export interface Words {
  /** What a pattern stands for: "must be <what>, got ...". */
  what?: string;
  /** The whole problem of a pattern (or an int-or-string) mismatch instead: "<problem>, got ...". */
  problem?: string;
  /** A value of the wrong type (an object, map or list): "<notThis>, got a string". */
  notThis?: string;
  /**
   * The node's CEL rules say a phrase about their field ("is required when purpose is custom"), reported
   * like a keyword's problem, after the field's path. A rule inside a list item cannot name the item in a
   * fixed message, so without its path "which volume?" would go unanswered outside the API server.
   */
  rulePhrases?: true;
}

const WORDS = new WeakMap<object, Words>();

/** The words of a node (none for a plain JSONSchemaProps). */
export const wordsOf = (schema: JSONSchemaProps): Words => WORDS.get(schema) ?? {};

/** Registers `words` on `schema` (the very object the CRD holds) and returns it. */
export function worded<S extends JSONSchemaProps>(schema: S, words: Words): S {
  const given = Object.fromEntries(Object.entries(words).filter(([, v]) => v !== undefined));
  if (Object.keys(given).length > 0) WORDS.set(schema, { ...WORDS.get(schema), ...given });
  return schema;
}

/** A check of a node's value no schema keyword states (what a kept-as-given pod template must hold). */
export type Refinement = (value: unknown, field: string, report: (field: string, message: string) => void) => void;

const REFINEMENTS = new WeakMap<object, Refinement>();

/** The hand-written check of a node, run by the interpreter after the schema's own (none for most nodes). */
export const refinementOf = (schema: JSONSchemaProps): Refinement | undefined => REFINEMENTS.get(schema);

/** Attaches `check` to `schema` (the very object the CRD holds): it runs whenever a value of that node passed the schema. */
export function refined<S extends JSONSchemaProps>(schema: S, check: Refinement): S {
  REFINEMENTS.set(schema, check);
  return schema;
}

/**
 * A value of a schema with every field present, at every depth: what a controller writes whole (its
 * status), where the schema, which also admits what an older controller or none has written yet, leaves
 * each field optional.
 */
export type Complete<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]-?: Complete<T[K]> } : T;

/** A schema's JSON with the validator's words taken out. */
export type Extra = JSONSchemaProps & Words;
/** No extra keys (the default of the builders' `extra`). */
export type NoExtra = Record<never, never>;

/** The `description` key, left out when there is none (a node of a status the CRD never described). */
const described = (description: string | undefined) => (description === undefined ? {} : { description });

function build<T, D extends boolean, G = T>(json: JSONSchemaProps, extra: Extra): Schema<T, D, G> {
  const { what, problem, notThis, rulePhrases, ...rest } = extra;
  return worded({ ...json, ...rest }, { what, problem, notThis, rulePhrases }) as Schema<T, D, G>;
}

/** A string; one of its `enum` when `extra` gives one (the type is then that union). */
export function str<const E extends Extra = NoExtra>(description: string | undefined, extra?: E): Schema<StringOf<E>, HasDefault<E>> {
  return build({ type: 'string', ...described(description) }, extra ?? {});
}

/**
 * A 32-bit integer. The bound is stated besides the format: the API server refuses a number the format
 * cannot hold with no field in its message (`<nil>: Invalid value: "": Checked value must be of type
 * integer with format int32 in …`), and refuses one above `maximum` at the field.
 */
export function int<const E extends Extra = NoExtra>(description: string, minimum: number, extra?: E): Schema<number, HasDefault<E>> {
  return build({ type: 'integer', format: 'int32', minimum, maximum: 2 ** 31 - 1, description }, extra ?? {});
}

/** An integer without the int32 format (counts that may exceed 2^31). */
export function count<const E extends Extra = NoExtra>(description: string, minimum: number, extra?: E): Schema<number, HasDefault<E>> {
  return build({ type: 'integer', minimum, description }, extra ?? {});
}

/** An integer with no bound but its format's, if `extra` gives one (`{ format: 'int64' }`). */
export function integer<const E extends Extra = NoExtra>(description: string | undefined, extra?: E): Schema<number, HasDefault<E>> {
  return build({ type: 'integer', ...described(description) }, extra ?? {});
}

export function bool<const E extends Extra = NoExtra>(description: string | undefined, extra?: E): Schema<boolean, HasDefault<E>> {
  return build({ type: 'boolean', ...described(description) }, extra ?? {});
}

/** One of `values`, bounded in length so CEL rules that compare it stay within the API server's cost budget. */
export function enumOf<V extends string, const E extends Extra = NoExtra>(values: readonly V[], description: string, extra?: E): Schema<V, HasDefault<E>> {
  return build({ type: 'string', description, enum: [...values], maxLength: 64 }, extra ?? {});
}

/** A string-keyed map of `values` (labels, quantities by resource name). */
export function mapOf<V extends Schema, const E extends Extra = NoExtra>(
  description: string,
  values: V,
  extra?: E,
): Schema<Record<string, Static<V>>, HasDefault<E>, Record<string, Given<V>>> {
  return build({ type: 'object', description, additionalProperties: values }, extra ?? {});
}

export function listOf<I extends Schema, const E extends Extra = NoExtra>(description: string, items: I, extra?: E): Schema<Static<I>[], HasDefault<E>, Given<I>[]> {
  return build({ type: 'array', description, items }, extra ?? {});
}

/** An object kept as given (a pod template, an EnvVarSource): the API server and the validator look no further. */
export function freeObject(description: string): Schema<Record<string, unknown>, false> {
  return { type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true } as Schema<Record<string, unknown>, false>;
}

/** An object of `properties`; `required` lists the keys that must be present. */
export function object<P extends Record<string, Schema>, const R extends keyof P & string = never, const E extends Extra = NoExtra>(
  description: string | undefined,
  properties: P,
  extra?: E & { required?: readonly R[] },
): Schema<ObjectOf<P, R>, HasDefault<E>, GivenObjectOf<P, R>> {
  const { required, ...rest } = (extra ?? {}) as Extra & { required?: readonly string[] };
  return build({ type: 'object', ...described(description), ...(required ? { required: [...required] } : {}), properties }, rest);
}

/** An object whose declared `properties` are checked while anything else in it is kept as given (an env var's valueFrom). */
export function openObject<P extends Record<string, Schema>>(
  description: string | undefined,
  properties: P,
): Schema<ObjectOf<P, never> & Record<string, unknown>, false, GivenObjectOf<P, never> & Record<string, unknown>> {
  return build({ type: 'object', ...described(description), 'x-kubernetes-preserve-unknown-fields': true, properties }, {});
}

// Reading a stored status leniently, declared field by field: a field of the wrong type is dropped, never
// an error, because a malformed status never makes an object invalid (its controller rewrites it) and
// only well-typed values may reach code that trusts them. Pure.

import { compact, isCount, isObject, type Obj } from './checks.ts';

/** A Kubernetes condition, as every kind's status lists them. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** The value of one status field when it has the right type, else undefined. */
export type FieldReader<T> = (value: unknown) => T | undefined;

export const text: FieldReader<string> = (value) => (typeof value === 'string' ? value : undefined);
export const flag: FieldReader<boolean> = (value) => (typeof value === 'boolean' ? value : undefined);
/** A count: an integer >= 0. */
export const count: FieldReader<number> = (value) => (isCount(value, 0) ? value : undefined);
/** Any integer JavaScript reads exactly, negative ones too. */
export const wholeNumber: FieldReader<number> = (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined);
/** The well-formed conditions of the list, copied. */
export const conditions: FieldReader<Condition[]> = (value) => (Array.isArray(value) ? value.filter(isCondition).map((c) => ({ ...c })) : undefined);

export function oneOf<T extends string>(allowed: readonly T[]): FieldReader<T> {
  return (value) => ((allowed as readonly unknown[]).includes(value) ? (value as T) : undefined);
}

/** A reader for each field of the status `T`. */
export type StatusFields<T> = { [K in keyof T]-?: FieldReader<NonNullable<T[K]>> };

/** The reader of a whole status: each field of `T` read by its reader, the fields it drops left out. */
export function statusReader<T extends object>(fields: StatusFields<T>): (status: Obj) => T {
  const readers = Object.entries(fields) as [string, FieldReader<unknown>][];
  return (status) => compact(Object.fromEntries(readers.map(([key, read]) => [key, read(status[key])]))) as T;
}

function isCondition(value: unknown): value is Condition {
  return isObject(value) && typeof value.type === 'string' && (value.status === 'True' || value.status === 'False' || value.status === 'Unknown');
}

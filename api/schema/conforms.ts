// Whether a value is one its schema admits, by the one interpreter (./check.ts): how a stored status is
// read without being trusted. The API server checks every status write against the CRD, so a stored
// status conforms unless something wrote around the schema; such a status is then not read at all,
// never an error (its controller rewrites it). Pure.

import { checkValue } from './check.ts';
import type { Given, Schema } from './typed.ts';

/** True when `value` is present and the interpreter finds no problem in it (unknown fields aside: the API server prunes them). */
export function conforms<S extends Schema>(schema: S, value: unknown): value is Given<S> {
  if (value === undefined || value === null) return false;
  let problems = 0;
  checkValue(schema, value, '', () => problems++);
  return problems === 0;
}

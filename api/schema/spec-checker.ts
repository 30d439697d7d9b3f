// A kind's spec check from its declaration: the schema's interpreter (./check.ts) on `spec`, then the
// kind's hand-written rules across fields that no schema states (names derived from the object's name,
// what a kept-as-given pod template must hold). Plugs into the shared frame (api/common/object-validator.ts).

import type { Obj, ObjectMetadata, Report } from '../common/checks.ts';
import { checkValue } from './check.ts';
import type { Schema, Static } from './typed.ts';

/** Rules across fields: `spec` is the clean copy (possibly partial when something was reported), `raw` the object given. */
export type CrossFieldRules<S> = (spec: Static<S>, raw: Obj, report: Report, metadata: ObjectMetadata) => void;

export function specChecker<S extends Schema>(schema: S, crossField?: CrossFieldRules<S>): (spec: Obj, report: Report, metadata: ObjectMetadata) => Static<S> {
  return (raw, report, metadata) => {
    const spec = (checkValue(schema, raw, 'spec', report) ?? {}) as Static<S>;
    crossField?.(spec, raw, report, metadata);
    return spec;
  };
}

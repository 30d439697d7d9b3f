// The schema interpreter on a small declaration of its own: each keyword's message, defaults, pruning
// (undeclared fields reported apart), maps and list-map keys, refinements, and the CEL rules (reported on
// their fieldPath, skipped when a field they read failed its own check). The kinds' own tables are in
// api/<kind>/*.test.ts.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FieldIssue } from '../common/checks.ts';
import { checkValue } from './check.ts';
import { bool, count, enumOf, freeObject, int, listOf, mapOf, object, openObject, refined, str, type Static } from './typed.ts';

const item = object('An item.', { name: str('Its name.', { minLength: 1 }), size: int('Its size.', 0) }, { required: ['name'], notThis: 'must be an object with a name' });

const schema = object(
  'A test spec.',
  {
    label: str('A label.', { maxLength: 5, pattern: '^[a-z]+$', what: 'lower-case letters' }),
    mode: enumOf(['fast', 'slow'] as const, 'A mode.', { default: 'fast' }),
    replicas: count('Replicas.', 0, { maximum: 10 }),
    enabled: bool('On or off.'),
    limits: object('Limits, defaulted as a whole.', { min: int('Least.', 0, { default: 1 }), max: int('Most.', 1, { default: 5 }) }, {
      default: {},
      'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max', fieldPath: '.min' }],
    }),
    tags: mapOf('Tags.', str('A tag.', { minLength: 1 }), { notThis: 'must be a map of tags' }),
    items: listOf('Items.', item, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
    template: refined(freeObject('Kept as given.'), (value, field, report) => {
      if ((value as { spec?: unknown }).spec === undefined) report(`${field}.spec`, 'required: a spec');
    }),
  },
  { required: ['replicas'], 'x-kubernetes-validations': [{ rule: "!has(self.label) || self.label != 'x'", message: "label 'x' is reserved" }] },
);

function check(value: unknown): { value: unknown; errors: FieldIssue[] } {
  const errors: FieldIssue[] = [];
  const checked = checkValue(schema, value, 'spec', (field, message) => errors.push({ field, message }));
  return { value: checked, errors };
}

function undeclared(value: unknown): string[] {
  const fields: string[] = [];
  checkValue(schema, value, 'spec', () => {}, { unknown: (field) => fields.push(field) });
  return fields;
}

describe('the schema interpreter', () => {
  it('fills in defaults (nested ones too), prunes unknown fields and takes a null property as absent', () => {
    expect(check({ replicas: 2, extra: 1, enabled: null, tags: { b: 'y', a: 'x' } })).toEqual({
      value: { mode: 'fast', replicas: 2, limits: { min: 1, max: 5 }, tags: { a: 'x', b: 'y' } },
      errors: [],
    });
  });

  it('reports undeclared fields apart, in key order, among the declared ones where they sort', () => {
    expect(undeclared({ replicas: 2, zz: 1, extra: 1, limits: { min: 1, x: 2 }, template: { kept: true } })).toEqual(['spec.extra', 'spec.limits.x', 'spec.zz']);
    expect(undeclared({ replicas: 2, 'a.b': 1 })).toEqual(['spec["a.b"]']);
  });

  it('takes a null map entry as a value of the wrong type', () => {
    expect(check({ replicas: 2, tags: { a: 'x', c: null } }).errors).toEqual([{ field: 'spec.tags.c', message: 'must be a string, got null' }]);
  });

  it('words each keyword as every kind does (ModelDeployment\'s words, docs/validation.md)', () => {
    const { errors } = check({ label: 'ABC', mode: 'medium', replicas: 11, enabled: 'yes', tags: [], items: 'x' });
    expect(errors).toEqual([
      { field: 'spec.label', message: 'must be lower-case letters, got "ABC"' },
      { field: 'spec.mode', message: 'must be one of fast, slow, got "medium"' },
      { field: 'spec.replicas', message: 'must be at most 10, got 11' },
      { field: 'spec.enabled', message: 'must be a boolean, got string' },
      { field: 'spec.tags', message: 'must be a map of tags, got list' },
      { field: 'spec.items', message: 'must be a list, got string' },
    ]);
    expect(check({ label: 'abcdef' }).errors).toEqual([
      { field: 'spec.label', message: 'must be at most 5 characters long, got 6' },
      { field: 'spec.replicas', message: 'is required' },
    ]);
    expect(check({ replicas: 1.5, mode: 3 }).errors).toEqual([
      { field: 'spec.mode', message: 'must be a string, got integer' },
      { field: 'spec.replicas', message: 'must be an integer, got number' },
    ]);
  });

  it('checks list items and the keys of a list-map (the first duplicate, on the list)', () => {
    const { errors } = check({ replicas: 1, items: [{ name: 'a' }, 3, { name: '' }, { name: 'a', size: -1 }, { name: 'a' }] });
    expect(errors).toEqual([
      { field: 'spec.items[1]', message: 'must be an object with a name, got integer' },
      { field: 'spec.items[2].name', message: 'must not be empty' },
      { field: 'spec.items[3].size', message: 'must be at least 0, got -1' },
      { field: 'spec.items', message: 'has a duplicate entry ["a"]' },
    ]);
  });

  it('bounds a list and keeps a set free of repeats; checks the declared fields of an object kept as given', () => {
    const tags = listOf('Tags.', str('A tag.'), { 'x-kubernetes-list-type': 'set', maxItems: 2 });
    const source = openObject('Kept as given.', { name: str('A name.', { maxLength: 3 }) });
    const errors: FieldIssue[] = [];
    const report = (field: string, message: string) => errors.push({ field, message });
    checkValue(tags, ['a', 'b', 'a'], 'spec.tags', report);
    expect(checkValue(source, { name: 'abc', other: { x: 1 } }, 'spec.source', report)).toEqual({ name: 'abc', other: { x: 1 } });
    checkValue(source, { name: 'abcd' }, 'spec.source', report);
    expect(errors).toEqual([
      { field: 'spec.tags', message: 'must have at most 2 items, got 3' },
      { field: 'spec.tags', message: 'has a duplicate entry "a"' },
      { field: 'spec.source.name', message: 'must be at most 3 characters long, got 4' },
    ]);
  });

  it('runs a refinement where its node is checked, on values the schema accepted', () => {
    expect(check({ replicas: 1, template: {} }).errors).toEqual([{ field: 'spec.template.spec', message: 'required: a spec' }]);
    expect(check({ replicas: 1, template: 'x' }).errors).toEqual([{ field: 'spec.template', message: 'must be an object, got string' }]);
  });

  it("evaluates the CRD's CEL rules offline, on the stored form, reported on their fieldPath", () => {
    expect(check({ replicas: 1, limits: { min: 9 } }).errors).toEqual([{ field: 'spec.limits.min', message: 'min must not exceed max' }]);
    expect(check({ replicas: 1, label: 'x' }).errors).toEqual([{ field: 'spec', message: "label 'x' is reserved" }]);
  });

  it('skips a rule that reads a field which failed its own check: one problem, one message', () => {
    expect(check({ replicas: 1, limits: { min: 'many', max: 0 } }).errors).toEqual([
      { field: 'spec.limits.min', message: 'must be an integer, got string' },
      { field: 'spec.limits.max', message: 'must be at least 1, got 0' },
    ]);
  });

  it('derives the TypeScript type: required and defaulted fields present, the others optional', () => {
    type Spec = Static<typeof schema>;
    expectTypeOf<Spec['replicas']>().toEqualTypeOf<number>();
    expectTypeOf<Spec['mode']>().toEqualTypeOf<'fast' | 'slow'>();
    expectTypeOf<Spec['limits']>().toEqualTypeOf<{ min: number; max: number }>();
    expectTypeOf<Spec['label']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Spec['items']>().toEqualTypeOf<{ name: string; size?: number }[] | undefined>();
    expectTypeOf<Spec['tags']>().toEqualTypeOf<Record<string, string> | undefined>();
  });
});

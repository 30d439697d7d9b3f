import { describe, expect, it } from 'vitest';
import { conforms } from './conforms.ts';
import { count, enumOf, object, str } from './typed.ts';

const status = object(undefined, {
  state: enumOf(['Pending', 'Running'], 'The state.'),
  ready: count('Ready pods.', 0),
  endpoint: object(undefined, { host: str('Host.') }, { required: ['host'] }),
});

describe('conforms', () => {
  it('admits a value the schema admits, with any optional field missing and unknown fields aside', () => {
    expect(conforms(status, { state: 'Running', ready: 2, endpoint: { host: 'h' } })).toBe(true);
    expect(conforms(status, {})).toBe(true);
    expect(conforms(status, { ready: 0, extra: 'pruned by the API server' })).toBe(true);
  });

  it('refuses a value with any problem the interpreter finds, and no value at all', () => {
    expect(conforms(status, { state: 'Sideways' })).toBe(false);
    expect(conforms(status, { ready: -1 })).toBe(false);
    expect(conforms(status, { ready: '2' })).toBe(false);
    expect(conforms(status, { endpoint: {} })).toBe(false);
    expect(conforms(status, 'Running')).toBe(false);
    expect(conforms(status, undefined)).toBe(false);
    expect(conforms(status, null)).toBe(false);
  });
});

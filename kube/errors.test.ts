import { describe, expect, it } from 'vitest';
import { classifyKubeError, refusalOf, toActivityFailure } from './errors.ts';

const apiError = (code: number, body: unknown) => Object.assign(new Error('api'), { code, body });

describe('classifyKubeError', () => {
  it('tells a missing object from a missing resource type by the Status body', () => {
    expect(classifyKubeError(apiError(404, { kind: 'Status', reason: 'NotFound', message: 'x not found' })).type).toBe('NotFound');
    expect(classifyKubeError(apiError(404, '404 page not found')).type).toBe('NoKindMatch');
    expect(classifyKubeError(apiError(404, JSON.stringify({ kind: 'Status', reason: 'NotFound' }))).type).toBe('NotFound');
  });

  it('classifies conflicts, permissions, invalid requests and outages', () => {
    expect(classifyKubeError(apiError(409, { kind: 'Status', reason: 'AlreadyExists' })).type).toBe('AlreadyExists');
    expect(classifyKubeError(apiError(409, { kind: 'Status', reason: 'Conflict' })).type).toBe('Conflict');
    expect(classifyKubeError(apiError(403, { kind: 'Status', reason: 'Forbidden' })).type).toBe('Forbidden');
    expect(classifyKubeError(apiError(422, { kind: 'Status', reason: 'Invalid', message: 'spec.x: Invalid value' })).detail).toBe('spec.x: Invalid value');
    expect(classifyKubeError(apiError(503, '')).type).toBe('Unavailable');
    expect(classifyKubeError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).type).toBe('Unavailable');
    expect(classifyKubeError(new Error('boom')).type).toBe('Unknown');
  });

  it("tells a refusal of the object (422, 400: the author must act) from an outage (500: try again)", () => {
    expect(classifyKubeError(apiError(422, { kind: 'Status', reason: 'Invalid', message: 'spec.x: Invalid value' })).refused).toBe(true);
    expect(classifyKubeError(apiError(400, { kind: 'Status', reason: 'BadRequest', message: 'strict decoding error: unknown field "spec.y"' })).refused).toBe(true);
    expect(refusalOf(apiError(422, { kind: 'Status', message: 'bad' }))?.detail).toBe('bad');
    // A server-side apply the schema refuses answers 500: no structured reason tells it from an outage.
    const internal = classifyKubeError(apiError(500, { kind: 'Status', reason: 'InternalError', message: 'failed to create typed patch object' }));
    expect(internal.refused).toBe(false);
    expect(internal.retryable).toBe(true);
    expect(refusalOf(apiError(503, ''))).toBeUndefined();
    expect(refusalOf(apiError(409, { kind: 'Status', reason: 'Conflict' }))).toBeUndefined();
  });

  it('maps the classification to a typed Temporal failure with a retry class', () => {
    const invalid = toActivityFailure(apiError(422, { kind: 'Status', message: 'bad' }), 'apply Workspace');
    expect(invalid.type).toBe('KubeInvalid');
    expect(invalid.nonRetryable).toBe(true);
    expect(invalid.message).toBe('apply Workspace: bad');
    const conflict = toActivityFailure(apiError(409, { kind: 'Status', reason: 'Conflict', message: 'stale' }), 'write status');
    expect(conflict.type).toBe('KubeConflict');
    expect(conflict.nonRetryable).toBe(false);
  });
});

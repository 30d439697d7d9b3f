import { describe, expect, it } from 'vitest';
import { RETRY_REFUSED, RetryRefused, retryRefusal, validateRetry } from './retry-refusal.ts';

describe("the retry update's refusals", () => {
  it('refuses a paused object, naming the annotation to remove', () => {
    expect(retryRefusal({ step: 'paused' })).toMatch(/^reconciliation is paused by the kubeairunway\.ai\/reconcile-paused annotation/);
  });

  it('takes a failed, a waiting and an idle object (an idle one gets a whole pass)', () => {
    for (const step of ['apply', 'cleanup', 'switch-provider', 'idle']) expect(retryRefusal({ step })).toBeUndefined();
  });

  it('throws the refusal as a RetryRefused error, the failure type the client sees', () => {
    const thrown = (() => {
      try {
        validateRetry({ step: 'paused' });
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(RetryRefused);
    // The SDK types the failure by the thrown error's own name: it must be the type the client looks for.
    expect(thrown).toHaveProperty('name', RETRY_REFUSED);
    expect(new RetryRefused('x').name).toBe(RETRY_REFUSED);
    expect(() => validateRetry({ step: 'idle' })).not.toThrow();
  });
});

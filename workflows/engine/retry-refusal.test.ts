import { describe, expect, it } from 'vitest';
import { RETRY_REFUSED, RetryRefused, retryRefusal, validateRetry } from './retry-refusal.ts';

describe("the retry update's refusals", () => {
  it('refuses a paused object, naming the annotation to remove', () => {
    expect(retryRefusal({ step: 'paused' }, false)).toMatch(/^reconciliation is paused by the kubeairunway\.ai\/reconcile-paused annotation/);
  });

  it('refuses once the object is gone, whatever the step', () => {
    expect(retryRefusal({ step: 'cleanup' }, true)).toMatch(/^the object is gone/);
    expect(retryRefusal({ step: 'paused' }, true)).toMatch(/^the object is gone/);
  });

  it('takes a failed, a waiting and an idle object (an idle one gets a whole pass)', () => {
    for (const step of ['apply', 'cleanup', 'switch-provider', 'idle']) expect(retryRefusal({ step }, false)).toBeUndefined();
  });

  it('throws the refusal as a RetryRefused error, the failure type the client sees', () => {
    const thrown = (() => {
      try {
        validateRetry({ step: 'paused' }, false);
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(RetryRefused);
    // The SDK names the failure after the class: the two must agree.
    expect(RetryRefused.name).toBe(RETRY_REFUSED);
    expect(() => validateRetry({ step: 'idle' }, false)).not.toThrow();
  });
});

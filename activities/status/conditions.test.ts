import { describe, expect, it } from 'vitest';
import { withTransitionTimes } from './conditions.ts';
import { kubeNow } from '../../kube/time.ts';

describe('withTransitionTimes', () => {
  const live = [{ type: 'Ready', status: 'False' as const, reason: 'Deploying', message: 'a', lastTransitionTime: '2026-01-01T00:00:00Z' }];

  it('keeps the transition time when only reason or message change', () => {
    const [ready] = withTransitionTimes(live, [{ type: 'Ready', status: 'False', reason: 'StillDeploying', message: 'b' }], '2026-02-02T00:00:00Z', 3);
    expect(ready).toEqual({ type: 'Ready', status: 'False', reason: 'StillDeploying', message: 'b', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 3 });
  });

  it('moves the transition time when the status changes or the condition is new', () => {
    const out = withTransitionTimes(
      live,
      [
        { type: 'Ready', status: 'True', reason: 'Ready', message: '' },
        { type: 'Validated', status: 'True', reason: 'ValidationPassed', message: '' },
      ],
      '2026-02-02T00:00:00Z',
      1,
    );
    expect(out.map((c) => c.lastTransitionTime)).toEqual(['2026-02-02T00:00:00Z', '2026-02-02T00:00:00Z']);
  });

  it('formats times as the API server does', () => {
    expect(kubeNow(new Date('2026-03-04T05:06:07.891Z'))).toBe('2026-03-04T05:06:07Z');
  });
});

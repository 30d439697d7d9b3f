import { describe, expect, it } from 'vitest';
import { showsStatus } from './simulator.ts';
import { dynamoGraphDeployment, kaitoWorkspace } from './scripts.ts';

describe('showsStatus (a restarted simulated operator leaves a finished resource alone)', () => {
  const dgd = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'a', namespace: 'n' }, spec: { components: [{ name: 'Frontend', replicas: 2 }] } };

  it('finds the ending it would write, whatever the times', () => {
    const written = JSON.parse(JSON.stringify(dynamoGraphDeployment.ready(dgd))) as Record<string, unknown>;
    for (const c of written.conditions as { lastTransitionTime: string }[]) c.lastTransitionTime = '2020-01-01T00:00:00Z';
    expect(showsStatus({ ...written, extra: 'kept by someone else' }, dynamoGraphDeployment.ready(dgd))).toBe(true);
    expect(showsStatus(kaitoWorkspace.ready({} as never), kaitoWorkspace.ready({} as never))).toBe(true);
  });

  it('does not take another state, a missing field or a shorter list for it', () => {
    expect(showsStatus(dynamoGraphDeployment.progressing(dgd), dynamoGraphDeployment.ready(dgd))).toBe(false);
    expect(showsStatus(kaitoWorkspace.progressing({} as never), kaitoWorkspace.ready({} as never))).toBe(false);
    expect(showsStatus({}, { state: 'successful' })).toBe(false);
    expect(showsStatus({ conditions: [] }, { conditions: [{ type: 'Ready' }] })).toBe(false);
    expect(showsStatus({ state: ['successful'] }, { state: 'successful' })).toBe(false);
    expect(showsStatus(undefined, { state: 'successful' })).toBe(false);
  });
});

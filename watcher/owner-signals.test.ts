import { describe, expect, it } from 'vitest';
import type { AnyObject } from '../kube/custom-objects.ts';
import { OwnerSignals } from './owner-signals.ts';
import type { Delivery } from './signaler.ts';
import { modelDeploymentKind } from './kinds/model-deployment.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A provider resource owned by ModelDeployment `md` (uid `md-uid`). */
function resource(uid: string, status?: object): AnyObject {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'DynamoGraphDeployment',
    metadata: { namespace: 'ns', name: 'md', uid, generation: 1, ownerReferences: [{ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'md', uid: 'md-uid', controller: true }] },
    spec: { replicas: 1 },
    ...(status ? { status } : {}),
  } as AnyObject;
}

function signals() {
  const delivered: Delivery[] = [];
  const owners = new OwnerSignals(async (d) => void delivered.push(d), modelDeploymentKind);
  return { owners, delivered, reasons: () => delivered.map((d) => d.request?.reason) };
}

describe('OwnerSignals', () => {
  it('wakes the owner for news of its resource, not for the echo of its own write', async () => {
    const { owners, delivered, reasons } = signals();
    owners.wrote('DynamoGraphDeployment', resource('r1'));
    owners.changed('DynamoGraphDeployment', resource('r1'), 'DynamoGraphDeployment added');
    await tick();
    expect(delivered).toEqual([]);
    owners.changed('DynamoGraphDeployment', resource('r1', { state: 'successful' }), 'DynamoGraphDeployment changed');
    await tick();
    expect(reasons()).toEqual(['DynamoGraphDeployment changed']);
    expect(delivered[0]).toMatchObject({ ref: { namespace: 'ns', name: 'md', uid: 'md-uid' }, start: false });
  });

  it('says nothing of a deletion the owner made and saw done, but does of anyone else’s', async () => {
    const { owners, reasons } = signals();
    owners.expectRemoval('DynamoGraphDeployment', resource('r1'));
    owners.changed('DynamoGraphDeployment', resource('r1'), 'DynamoGraphDeployment deleted');
    await tick();
    expect(reasons()).toEqual([]);
    // The expectation is spent by its echo, and names one incarnation: another deletion is news.
    owners.changed('DynamoGraphDeployment', resource('r1'), 'DynamoGraphDeployment deleted');
    await tick();
    owners.changed('DynamoGraphDeployment', resource('r2'), 'DynamoGraphDeployment deleted');
    await tick();
    expect(reasons()).toEqual(['DynamoGraphDeployment deleted', 'DynamoGraphDeployment deleted']);
  });

  it('reports a deletion whose expectation was taken back (finalizers held the resource)', async () => {
    const { owners, reasons } = signals();
    const takeBack = owners.expectRemoval('DynamoGraphDeployment', resource('r1'));
    takeBack();
    owners.changed('DynamoGraphDeployment', resource('r1'), 'DynamoGraphDeployment deleted');
    await tick();
    expect(reasons()).toEqual(['DynamoGraphDeployment deleted']);
  });
});

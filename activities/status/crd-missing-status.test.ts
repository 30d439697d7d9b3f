import { describe, expect, it } from 'vitest';
import type { Condition } from '../../api/types.ts';
import { crdMissingCorrection } from './crd-missing-status.ts';

const NOW = '2026-11-27T12:00:00Z';
const MESSAGE = "Provider 'dynamo' CRD not installed in cluster";
const cond = (type: string, status: Condition['status'], reason: string, message = reason): Condition => ({ type, status, reason, message, lastTransitionTime: '2026-11-27T10:00:00Z', observedGeneration: 1 });

describe('crdMissingCorrection', () => {
  it('turns ResourceCreated and Ready False with the waiting reason, keeps the core\'s conditions, and zeroes ready counts', () => {
    const validated = cond('Validated', 'False', 'ValidationFailed', MESSAGE);
    const status = {
      phase: 'Pending' as const,
      replicas: { desired: 2, ready: 2, available: 2 },
      conditions: [validated, cond('ProviderCompatible', 'True', 'CompatibilityVerified'), cond('ResourceCreated', 'True', 'ResourceCreated'), cond('Ready', 'True', 'DeploymentReady')],
    };
    expect(crdMissingCorrection(status, 'dynamo', NOW)).toEqual({
      replicas: { desired: 2, ready: 0, available: 0 },
      conditions: [
        validated,
        cond('ProviderCompatible', 'True', 'CompatibilityVerified'),
        { type: 'ResourceCreated', status: 'False', reason: 'CRDNotInstalled', message: MESSAGE, lastTransitionTime: NOW, observedGeneration: 1 },
        { type: 'Ready', status: 'False', reason: 'CRDNotInstalled', message: MESSAGE, lastTransitionTime: NOW, observedGeneration: 1 },
      ],
    });
  });

  it('keeps the transition time of a condition that was False already', () => {
    const status = { conditions: [cond('Ready', 'False', 'DeploymentInProgress')] };
    expect(crdMissingCorrection(status, 'dynamo', NOW)?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'CRDNotInstalled', lastTransitionTime: '2026-11-27T10:00:00Z' });
  });

  it('nothing once the status says it (no write on every pass), and nothing added that the provider never wrote', () => {
    const said = { replicas: { desired: 1, ready: 0, available: 0 }, conditions: [cond('ResourceCreated', 'False', 'CRDNotInstalled', MESSAGE), cond('Ready', 'False', 'CRDNotInstalled', MESSAGE)] };
    expect(crdMissingCorrection(said, 'dynamo', NOW)).toBeUndefined();
    expect(crdMissingCorrection({ conditions: [cond('Validated', 'True', 'ValidationPassed')] }, 'dynamo', NOW)).toBeUndefined();
    expect(crdMissingCorrection(undefined, 'dynamo', NOW)).toBeUndefined();
  });

  it('the counts alone when only they claim too much', () => {
    expect(crdMissingCorrection({ replicas: { desired: 1, ready: 1 } }, 'dynamo', NOW)).toEqual({ replicas: { desired: 1, ready: 0, available: 0 } });
  });
});

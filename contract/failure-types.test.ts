import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { activityFailure, FAILURE_TYPES, isRetryableFailure, NON_RETRYABLE_FAILURE_TYPES, type FailureType } from './failure-types.ts';
import { ACTIVITY_RETRY } from '../workflows/engine/activity-options.ts';
import { classifyKubeError, KubeError, toActivityFailure, type KubeErrorType } from '../kube/errors.ts';
import { ContainerdError, toContainerdActivityFailure, type ContainerdErrorType } from '../containerd/errors.ts';
import { BrokerError, toBrokerActivityFailure } from '../broker/errors.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('one table of failure types and retry classes', () => {
  it('keeps the types that were retryable before the table retryable, and only those', () => {
    const transient = Object.keys(FAILURE_TYPES).filter((t) => isRetryableFailure(t as FailureType));
    expect(transient.sort()).toEqual(['BrokerUnavailable', 'ContainerdUnavailable', 'ContainerdUnknown', 'KubeConflict', 'KubeUnavailable', 'KubeUnknown']);
  });

  it('derives the activity retry policy from it: every permanent type, no transient one', () => {
    expect(ACTIVITY_RETRY.nonRetryableErrorTypes).toEqual([...NON_RETRYABLE_FAILURE_TYPES]);
    // The lists the workflows stated by hand before (core, in-process provider calls, node calls) are all in it.
    for (const t of ['KubeInvalid', 'KubeForbidden', 'KubeNoKindMatch', 'InvalidSpec', 'ActivityNotServed', 'ContainerdCheckpointFailed', 'ContainerdFailedPrecondition', 'ContainerdNotFound', 'ContainerdInvalid']) {
      expect(ACTIVITY_RETRY.nonRetryableErrorTypes).toContain(t);
    }
    expect(ACTIVITY_RETRY.nonRetryableErrorTypes).not.toContain('KubeConflict');
  });

  it('classifies Kubernetes, containerd and broker errors with the same retry class the policy uses', () => {
    const kube: KubeErrorType[] = ['NotFound', 'NoKindMatch', 'Conflict', 'AlreadyExists', 'Forbidden', 'Invalid', 'Unavailable', 'Unknown'];
    for (const type of kube) {
      const e = new KubeError(type, undefined, 'x');
      const failure = toActivityFailure(e, 'reading');
      expect(failure.type).toBe(`Kube${type}`);
      expect(failure.nonRetryable).toBe(NON_RETRYABLE_FAILURE_TYPES.includes(e.failureType));
      expect(e.retryable).toBe(!failure.nonRetryable);
    }
    const containerd: ContainerdErrorType[] = ['NotFound', 'AlreadyExists', 'FailedPrecondition', 'Invalid', 'Unavailable', 'CheckpointFailed', 'Unknown'];
    for (const type of containerd) {
      const failure = toContainerdActivityFailure(new ContainerdError(type, undefined, 'x'), 'dumping');
      expect(failure.type).toBe(`Containerd${type}`);
      expect(failure.nonRetryable).toBe(!isRetryableFailure(failure.type as FailureType));
    }
    expect(toBrokerActivityFailure(new BrokerError('BrokerRefused', 403, 'no'), 'declaring').nonRetryable).toBe(true);
    expect(toBrokerActivityFailure(new BrokerError('BrokerUnavailable', undefined, 'down'), 'declaring').nonRetryable).toBe(false);
    // A conflict from the API server is still retried, an RBAC refusal is not.
    expect(classifyKubeError({ code: 409, body: { kind: 'Status', reason: 'Conflict' } }).retryable).toBe(true);
    expect(classifyKubeError({ code: 403, body: { kind: 'Status', reason: 'Forbidden' } }).retryable).toBe(false);
  });

  it('builds the controller’s own failures with the table’s retry class', () => {
    const f = activityFailure('ProviderBug', 'rendered nothing');
    expect(f).toMatchObject({ type: 'ProviderBug', message: 'rendered nothing', nonRetryable: true });
  });
});

/** Product sources (no tests, no test folder, no dependencies). */
function productFiles(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'dist', 'test', '.git', '.state', 'deploy', 'docs', 'examples'].includes(name)) return [];
    if (statSync(path).isDirectory()) return productFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('no activity failure is built outside the table', () => {
  it('finds no ApplicationFailure.create/nonRetryable/retryable in product code but the one constructor', () => {
    const raw = /ApplicationFailure\.(create|nonRetryable|retryable)\(/;
    const offenders = productFiles().filter((f) => f !== 'contract/failure-types.ts' && raw.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { classifyContainerdError, ContainerdError, isContainerdError, toContainerdActivityFailure } from './errors.ts';

// Errors in the shape grpc-js gives them: `code`, `details` (the server's message), and a `message`
// that prefixes the code's name. The runtime messages are recorded from containerd 1.6 with Debian 12's
// runc and CRIU.
const grpc = (code: number, details: string) => Object.assign(new Error(`${code} X: ${details}`), { code, details });
const DUMP_FAILED =
  'runc did not terminate successfully: exit status 1: criu failed: type DUMP errno 0 path= /state/io.containerd.runtime.v2.task/k8s.io/counter/criu-dump.log: unknown';
const RESTORE_FAILED = 'OCI runtime restore failed: criu failed: type RESTORE errno 0\nlog file: /state/io.containerd.runtime.v2.task/k8s.io/r/work/restore.log: unknown';

describe('classifyContainerdError', () => {
  it('maps containerd\'s status codes to types and retry classes', () => {
    for (const [code, type, retryable] of [
      [5, 'NotFound', false],
      [6, 'AlreadyExists', false],
      [9, 'FailedPrecondition', false],
      [3, 'Invalid', false],
      [12, 'Invalid', false],
      [14, 'Unavailable', true],
      [4, 'Unavailable', true],
      [1, 'Unavailable', true],
      [2, 'Unknown', true],
      [13, 'Unknown', true],
    ] as const) {
      const e = classifyContainerdError(grpc(code, 'container "x": not found'));
      expect(e).toMatchObject({ type, code, retryable, detail: 'container "x": not found' });
    }
  });

  it('makes a runtime failure during a checkpoint or restore CheckpointFailed: not retryable, carrying the message', () => {
    for (const [operation, message] of [
      ['checkpoint', DUMP_FAILED],
      ['restore', RESTORE_FAILED],
    ] as const) {
      const e = classifyContainerdError(grpc(2, message), operation);
      expect(e).toMatchObject({ type: 'CheckpointFailed', code: 2, retryable: false, criuLog: message });
    }
    // The same code elsewhere, or another code during a checkpoint, keeps its usual meaning.
    expect(classifyContainerdError(grpc(2, DUMP_FAILED))).toMatchObject({ type: 'Unknown' });
    expect(classifyContainerdError(grpc(9, 'task must be running'), 'checkpoint')).toMatchObject({ type: 'FailedPrecondition' });
    expect(classifyContainerdError(grpc(14, 'connection refused'), 'checkpoint')).toMatchObject({ type: 'Unavailable' });
  });

  it('treats a missing or refusing socket as Unavailable, anything else as Unknown', () => {
    expect(classifyContainerdError(Object.assign(new Error('connect ENOENT /run/x.sock'), { code: 'ENOENT' }))).toMatchObject({ type: 'Unavailable', code: undefined });
    expect(classifyContainerdError('a string')).toMatchObject({ type: 'Unknown', detail: 'a string' });
  });

  it('keeps a classified error, and says what it is', () => {
    const e = new ContainerdError('NotFound', 5, 'no task');
    expect(classifyContainerdError(e)).toBe(e);
    expect(e.message).toBe('NotFound (gRPC 5): no task');
    expect(isContainerdError(e, 'NotFound', 'Invalid')).toBe(true);
    expect(isContainerdError(new Error('x'), 'NotFound')).toBe(false);
  });
});

describe('toContainerdActivityFailure', () => {
  it('is typed Containerd<Type> and non-retryable exactly when repeating cannot help', () => {
    const failed = toContainerdActivityFailure(new ContainerdError('CheckpointFailed', 2, DUMP_FAILED, 'Error (criu/vdso.c:381): vdso'), 'checkpoint k8s.io/counter');
    expect(failed).toMatchObject({ type: 'ContainerdCheckpointFailed', nonRetryable: true });
    expect(failed.message).toBe(`checkpoint k8s.io/counter: ${DUMP_FAILED}`);
    expect(failed.details).toEqual([{ type: 'CheckpointFailed', code: 2, detail: DUMP_FAILED, criuLog: 'Error (criu/vdso.c:381): vdso' }]);
    expect(toContainerdActivityFailure(grpc(14, 'down'), 'x')).toMatchObject({ type: 'ContainerdUnavailable', nonRetryable: false });
  });
});

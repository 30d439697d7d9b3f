import { join } from 'node:path';
import { loadSync } from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { PROTO_DIR } from './connection.ts';
import { MEDIA_TYPE, packCheckpointOptions } from './encoding.ts';
import { createTaskRequest } from './tasks.ts';

// Requests serialized exactly as the client sends them, against bytes written out from containerd's own
// field numbers (api/services/tasks/v1/tasks.proto, api/types/descriptor.proto,
// api/services/content/v1/content.proto): a wrong number in our .proto files fails here. protobufjs
// writes a field that the object sets even at its default ('' as 12 00, false as 38 00), which containerd
// reads as the default, as if it were absent.
const defs = loadSync(['tasks.proto', 'content.proto'].map((f) => join(PROTO_DIR, f)), { includeDirs: [PROTO_DIR], keepCase: true, longs: Number, enums: String, defaults: true });
const serialize = (service: string, method: string, value: object) =>
  Buffer.from((defs[service] as Record<string, { requestSerialize(v: object): Buffer }>)[method]!.requestSerialize(value)).toString('hex');
const str = (field: number, s: string | Buffer) => {
  const b = Buffer.isBuffer(s) ? s : Buffer.from(s);
  return Buffer.concat([Buffer.from([(field << 3) | 2, b.length]), b]).toString('hex');
};
const msg = (field: number, innerHex: string) => `${((field << 3) | 2).toString(16).padStart(2, '0')}${(innerHex.length / 2).toString(16).padStart(2, '0')}${innerHex}`;

describe('containerd requests on the wire', () => {
  it('CheckpointTaskRequest: container_id = 1, parent_checkpoint = 2, options = 3 (Any: type_url = 1, value = 2)', () => {
    const options = packCheckpointOptions({ exit: true });
    expect(serialize('containerd.services.tasks.v1.Tasks', 'Checkpoint', { container_id: 'c1', parent_checkpoint: '', options })).toBe(
      `${str(1, 'c1')}${str(2, '')}${msg(3, `${str(1, 'containerd.runc.v1.CheckpointOptions')}${str(2, Buffer.from([0x08, 0x01]))}`)}`,
    );
  });

  it('CreateTaskRequest: stdin = 4, stdout = 5, stderr = 6, terminal = 7, checkpoint = 8 (Descriptor: media_type = 1, digest = 2, size = 3)', () => {
    const checkpoint = { media_type: MEDIA_TYPE.checkpoint, digest: 'sha256:ab', size: 100 };
    expect(serialize('containerd.services.tasks.v1.Tasks', 'Create', createTaskRequest('c1', { checkpoint }))).toBe(
      `${str(1, 'c1')}${str(4, '')}${str(5, 'file:///dev/null')}${str(6, 'file:///dev/null')}3800${msg(8, `${str(1, MEDIA_TYPE.checkpoint)}${str(2, 'sha256:ab')}1864`)}`,
    );
  });

  it('WriteContentRequest: action = 1 (COMMIT = 2), ref = 2, total = 3, expected = 4, offset = 5, data = 6, labels = 7', () => {
    const hex = serialize('containerd.services.content.v1.Content', 'Write', {
      action: 'COMMIT',
      ref: 'r',
      total: 2,
      expected: 'sha256:x',
      offset: 0,
      data: Buffer.from('{}'),
      labels: { k: 'v' },
    });
    expect(hex).toBe(`0802${str(2, 'r')}1802${str(4, 'sha256:x')}2800${str(6, '{}')}${msg(7, `${str(1, 'k')}${str(2, 'v')}`)}`);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_LABEL,
  checkpointIndex,
  checkpointName,
  checkpointParts,
  decodeAnyBytes,
  encodeAnyBytes,
  goArch,
  MEDIA_TYPE,
  packCheckpointOptions,
  packRuncOptions,
  packSpec,
  TYPE_URL,
  unpackRunc,
  unpackSpec,
} from './encoding.ts';

// Expected bytes are written out from containerd's field numbers (api/types/runc/options/oci.proto:
// CheckpointOptions exit = 1, image_path = 8, work_path = 9; Options binary_name = 6, root = 7,
// criu_work_path = 11), not from our .proto files, so a wrong number in those fails here.
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const str = (field: number, s: string) => Buffer.concat([Buffer.from([(field << 3) | 2, s.length]), Buffer.from(s)]).toString('hex');

describe('runc options in Any', () => {
  it('packs CheckpointOptions under its bare message name, leaveRunning as exit = !leaveRunning', () => {
    const leaveRunning = packCheckpointOptions({ exit: false });
    expect(leaveRunning.type_url).toBe('containerd.runc.v1.CheckpointOptions');
    expect(hex(leaveRunning.value)).toBe(''); // proto3: all defaults, nothing on the wire
    const exit = packCheckpointOptions({ exit: true, imagePath: '/img', workPath: '/work' });
    expect(hex(exit.value)).toBe(`0801${str(8, '/img')}${str(9, '/work')}`);
    expect(unpackRunc(exit)).toMatchObject({ exit: true, imagePath: '/img', workPath: '/work', openTcp: false });
  });

  it('packs the container runtime Options (runc root and binary, CRIU work path)', () => {
    const any = packRuncOptions({ binaryName: '/usr/sbin/runc', root: '/state/runc', criuWorkPath: '/w' });
    expect(any.type_url).toBe(TYPE_URL.runcOptions);
    expect(hex(any.value)).toBe(`${str(6, '/usr/sbin/runc')}${str(7, '/state/runc')}${str(11, '/w')}`);
    expect(() => unpackRunc({ type_url: 'type.googleapis.com/x', value: Buffer.alloc(0) })).toThrow(/not a runc options type/);
  });

  it('carries the OCI spec as JSON under containerd\'s registered type URL', () => {
    const any = packSpec({ ociVersion: '1.0.2', process: { args: ['sh'] } });
    expect(any.type_url).toBe('types.containerd.io/opencontainers/runtime-spec/1/Spec');
    expect(JSON.parse(any.value.toString())).toEqual({ ociVersion: '1.0.2', process: { args: ['sh'] } });
    expect(unpackSpec(any)).toEqual({ ociVersion: '1.0.2', process: { args: ['sh'] } });
    expect(() => unpackSpec({ type_url: TYPE_URL.runcOptions, value: Buffer.alloc(0) })).toThrow(/not an OCI runtime spec/);
  });

  it('reads and writes a checkpoint config blob: google.protobuf.Any as protobuf bytes (type_url = 1, value = 2)', () => {
    const any = packSpec({ a: 1 });
    const bytes = encodeAnyBytes(any);
    expect(hex(bytes)).toBe(`${str(1, TYPE_URL.spec)}12${any.value.length.toString(16).padStart(2, '0')}${hex(any.value)}`);
    expect(decodeAnyBytes(bytes)).toEqual(any);
  });
});

describe('checkpoint image index', () => {
  const tar = { media_type: MEDIA_TYPE.checkpoint, digest: `sha256:${'a'.repeat(64)}`, size: 4096 };
  const config = { media_type: MEDIA_TYPE.checkpointConfig, digest: `sha256:${'b'.repeat(64)}`, size: 300, annotations: { x: 'y' } };

  it('is an OCI index listing the blobs with their platform, its digest the sha256 of its bytes', () => {
    const blob = checkpointIndex([tar, config], { os: 'linux', architecture: 'arm64' });
    expect(JSON.parse(blob.bytes.toString())).toEqual({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [
        { mediaType: MEDIA_TYPE.checkpoint, digest: tar.digest, size: 4096, platform: { os: 'linux', architecture: 'arm64' } },
        { mediaType: MEDIA_TYPE.checkpointConfig, digest: config.digest, size: 300, platform: { os: 'linux', architecture: 'arm64' }, annotations: { x: 'y' } },
      ],
    });
    expect(blob.descriptor).toEqual({
      media_type: MEDIA_TYPE.index,
      digest: `sha256:${createHash('sha256').update(blob.bytes).digest('hex')}`,
      size: blob.bytes.length,
    });
  });

  it('labels the index with a gc.ref for every blob, which keeps them once the lease ends', () => {
    expect(checkpointIndex([tar, config]).labels).toEqual({
      'containerd.io/gc.ref.content.0': tar.digest,
      'containerd.io/gc.ref.content.1': config.digest,
    });
  });

  it('is read back into the criu tar and the spec', () => {
    const parts = checkpointParts(checkpointIndex([config, tar]).bytes);
    expect(parts.checkpoint).toMatchObject({ media_type: MEDIA_TYPE.checkpoint, digest: tar.digest, size: 4096 });
    expect(parts.config).toMatchObject({ digest: config.digest, annotations: { x: 'y' } });
    expect(checkpointParts(Buffer.from('{"schemaVersion":2}'))).toEqual({ checkpoint: undefined, config: undefined, all: [] });
  });

  it('names checkpoints like containerd, with a time that is a valid tag and distinct per millisecond', () => {
    expect(checkpointName('abc123', new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('containerd.io/checkpoint/abc123:20260102T030405.006Z');
    expect(checkpointName('abc123').split(':')[1]).toMatch(/^[\w][\w.-]{0,127}$/);
    expect(CHECKPOINT_LABEL).toBe('containerd.io/checkpoint');
  });

  it('names CPUs as Go does', () => {
    expect(goArch('x64')).toBe('amd64');
    expect(goArch('arm64')).toBe('arm64');
    expect(goArch('ia32')).toBe('386');
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { resolveTool } from '../../tools/resolve.ts';
import { localPathManifest } from './local-path.ts';

// The upstream manifest as its module ships it (kept beside the built provisioner): only the three
// changes the cluster mode needs are made to it.
const binary = resolveTool('local-path-provisioner')?.path;
const manifest = binary ? join(dirname(binary), 'local-path-storage.yaml') : undefined;
const missing = manifest && existsSync(manifest) ? undefined : 'local-path-provisioner not built (npm run tools -- --cluster)';

describe.skipIf(missing !== undefined)(`the local-path provisioner's manifest in the cluster mode${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const upstream = () => readFileSync(manifest!, 'utf8');
  const objects = () => localPathManifest(upstream(), 'docker.io/x/provisioner:cluster', 'docker.io/x/busybox:static');

  it('runs the images built here, for the provisioner and its helper pods', () => {
    const all = objects();
    const deployment = all.find((o) => o.kind === 'Deployment')!;
    expect(deployment.spec?.template?.spec?.containers?.[0]?.image).toBe('docker.io/x/provisioner:cluster');
    const config = all.find((o) => o.kind === 'ConfigMap')!;
    const helper = parse(config.data!['helperPod.yaml']!) as { spec: { containers: { image: string }[] } };
    expect(helper.spec.containers[0]!.image).toBe('docker.io/x/busybox:static');
  });

  it('provisions folders in shared mode (ReadWriteMany served) in the default StorageClass', () => {
    const all = objects();
    const config = all.find((o) => o.kind === 'ConfigMap')!;
    expect(JSON.parse(config.data!['config.json']!)).toEqual({ sharedFileSystemPath: '/opt/local-path-provisioner' });
    const sc = all.find((o) => o.kind === 'StorageClass')!;
    expect(sc.metadata?.name).toBe('local-path');
    expect(sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');
  });

  it('keeps everything else as upstream ships it (kinds, names, the setup and teardown scripts)', () => {
    const upstreamDocs = upstream()
      .split(/^---$/m)
      .map((d) => parse(d) as { kind?: string; metadata?: { name?: string } } | null)
      .filter((d) => d !== null);
    expect(objects().map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(upstreamDocs.map((d) => `${d!.kind}/${d!.metadata?.name}`));
    const config = objects().find((o) => o.kind === 'ConfigMap')!;
    const original = upstreamDocs.find((d) => d!.kind === 'ConfigMap') as { data: Record<string, string> };
    expect(config.data!.setup).toBe(original.data.setup);
    expect(config.data!.teardown).toBe(original.data.teardown);
  });
});

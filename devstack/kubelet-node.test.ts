import { describe, expect, it } from 'vitest';
import { criImageName, kubeletContainerdConfig, PAUSE_IMAGE } from './kubelet-node.ts';

describe('criImageName (how containerd names an image `docker save` exported)', () => {
  it('puts a registry-less name under docker.io and keeps one that names a registry', () => {
    expect(criImageName('kubeairunway-local/busybox:static')).toBe('docker.io/kubeairunway-local/busybox:static');
    expect(criImageName('registry.example.com/x/y:1')).toBe('registry.example.com/x/y:1');
  });
});

describe('kubeletContainerdConfig', () => {
  const config = kubeletContainerdConfig('/state/containerd');
  it('turns the CRI plugin on (the Kybernate node\'s config disables it) and keeps the other plugins off', () => {
    const disabled = /^disabled_plugins = (.*)$/m.exec(config)?.[1] ?? '';
    expect(JSON.parse(disabled)).not.toContain('io.containerd.grpc.v1.cri');
    expect(JSON.parse(disabled)).toContain('io.containerd.snapshotter.v1.btrfs');
    expect(config).toContain('[plugins."io.containerd.grpc.v1.cri"]');
  });
  it('names the imported pause image, keeps oom scores containerd cannot lower, cgroupfs, CNI under the state folder', () => {
    expect(config).toContain(`sandbox_image = "docker.io/${PAUSE_IMAGE}"`);
    expect(config).toContain('restrict_oom_score_adj = true');
    expect(config).toContain('SystemdCgroup = false');
    expect(config).toContain('conf_dir = "/state/containerd/cni/net.d"');
    expect(config).toContain('address = "/state/containerd/containerd.sock"');
    // The state where a node keeps it: the paths in CRIU's failures are the node worker pod's too.
    expect(config).toContain('state = "/run/containerd"');
    expect(config).not.toContain('/state/containerd/state');
  });
});

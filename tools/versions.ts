// Pinned versions of the Go-built binaries the local stack runs. Changing a version here is the only
// step needed to move to another release: the cache is keyed by name and version.

export type ToolName = 'temporal' | 'etcd' | 'kube-apiserver' | 'kube-controller-manager';

export interface ToolSpec {
  name: ToolName;
  version: string;
  /** Environment variable that points at an existing binary instead of building one. */
  envVar: string;
  /** Which build produces this binary; kube-apiserver and kube-controller-manager share one. */
  build: 'temporal' | 'etcd' | 'kubernetes';
  /** Arguments that make the binary print its version. */
  versionArgs: string[];
  /** Extracts the version from that output. */
  versionPattern: RegExp;
}

// Temporal CLI 1.5.1 is the newest release whose go.mod has no replace directive (1.6+ replace their
// cliext module with a local path, and the module proxy here does not serve cliext), so it is the
// newest one `go install` can build. It bundles server 1.29 and the Web UI.
export const TEMPORAL_VERSION = '1.5.1';
// kube-apiserver >= 1.35 needs etcd >= 3.5.13 for watch progress requests.
export const ETCD_VERSION = '3.6.16';
export const KUBERNETES_VERSION = '1.36.3';

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'temporal',
    version: TEMPORAL_VERSION,
    envVar: 'KUBEAIRUNWAY_TEMPORAL_BIN',
    build: 'temporal',
    versionArgs: ['--version'],
    versionPattern: /temporal version (\d+\.\d+\.\d+)/,
  },
  {
    name: 'etcd',
    version: ETCD_VERSION,
    envVar: 'KUBEAIRUNWAY_ETCD_BIN',
    build: 'etcd',
    versionArgs: ['--version'],
    versionPattern: /etcd Version: (\d+\.\d+\.\d+)/,
  },
  {
    name: 'kube-apiserver',
    version: KUBERNETES_VERSION,
    envVar: 'KUBEAIRUNWAY_KUBE_APISERVER_BIN',
    build: 'kubernetes',
    versionArgs: ['--version'],
    versionPattern: /Kubernetes v(\d+\.\d+\.\d+)/,
  },
  {
    name: 'kube-controller-manager',
    version: KUBERNETES_VERSION,
    envVar: 'KUBEAIRUNWAY_KUBE_CONTROLLER_MANAGER_BIN',
    build: 'kubernetes',
    versionArgs: ['--version'],
    versionPattern: /Kubernetes v(\d+\.\d+\.\d+)/,
  },
];

export function toolSpec(name: ToolName): ToolSpec {
  const spec = TOOLS.find((t) => t.name === name);
  if (!spec) throw new Error(`unknown tool ${name}`);
  return spec;
}

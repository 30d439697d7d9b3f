// Pinned versions of the Go-built binaries the local stack runs. Changing a version here is the only
// step needed to move to another release: the cache is keyed by name and version.

export type ToolName =
  | 'temporal'
  | 'etcd'
  | 'kube-apiserver'
  | 'kube-controller-manager'
  | 'kuberay-operator'
  | 'keda-operator'
  | 'kubelet'
  | 'kube-scheduler'
  | 'kube-proxy'
  | 'cni-plugins'
  | 'coredns'
  | 'helm'
  | 'local-path-provisioner'
  | 'traefik';

export interface ToolSpec {
  name: ToolName;
  version: string;
  /** Environment variable that points at an existing binary instead of building one. */
  envVar: string;
  /**
   * Which build produces this binary: kube-apiserver and kube-controller-manager share one, and so do
   * the cluster mode's kubelet, kube-scheduler and kube-proxy (`kubernetes-node`).
   */
  build: 'temporal' | 'etcd' | 'kubernetes' | 'kuberay' | 'keda' | 'kubernetes-node' | 'cni-plugins' | 'coredns' | 'helm' | 'local-path-provisioner' | 'traefik';
  /**
   * `stack`: every local stack runs it; `operator`: an upstream operator that tests (and `npm run dev
   * --real-operators`) start on demand, so a stack starts without it; `cluster`: what the cluster mode
   * runs beside the stack (node, scheduler, pod network, DNS, the Helm client), built by `npm test`'s
   * setup (`--cluster`) and by `npm run dev -- --cluster` on demand, never by plain `npm run tools`.
   */
  role: 'stack' | 'operator' | 'cluster';
  /** Arguments that make the binary print its version. */
  versionArgs: string[];
  /** Extracts the version from that output. */
  versionPattern: RegExp;
  /**
   * For a binary without a version flag: the Go module whose version `go version -m` reads from the
   * binary's build information (the main module after `go install`, a dependency after a module build).
   */
  goModule?: string;
  /**
   * For a folder of programs rather than one binary (the CNI plugins, which containerd finds by name in
   * its `bin_dir`): the programs in it. The tool's path is then the folder, and each program in it must
   * report the version.
   */
  programs?: readonly string[];
}

// Temporal CLI 1.5.1 is the newest release whose go.mod has no replace directive (1.6+ replace their
// cliext module with a local path, and the module proxy here does not serve cliext), so it is the
// newest one `go install` can build. It bundles server 1.29 and the Web UI.
export const TEMPORAL_VERSION = '1.5.1';
// kube-apiserver >= 1.35 needs etcd >= 3.5.13 for watch progress requests.
export const ETCD_VERSION = '3.6.16';
export const KUBERNETES_VERSION = '1.36.3';
// The upstream operators that run for real in the end-to-end tests, and whose modules ship the CRDs.
export const KUBERAY_VERSION = '1.5.0';
export const KUBERAY_MODULE = 'github.com/ray-project/kuberay/ray-operator';
// KEDA's go.mod replaces one dependency, so it is built in a throwaway module (like etcd), not installed.
export const KEDA_VERSION = '2.21.0';
export const KEDA_MODULE = 'github.com/kedacore/keda/v2';
// The cluster mode's pod network (containerd's CRI runs these plugins), cluster DNS and chart client.
export const CNI_PLUGINS_VERSION = '1.10.0';
export const CNI_PLUGINS_MODULE = 'github.com/containernetworking/plugins';
/** The plugins a bridge pod network needs, by package in the module; each binary is named after its folder. */
export const CNI_PLUGIN_PACKAGES = ['plugins/main/bridge', 'plugins/ipam/host-local', 'plugins/main/loopback', 'plugins/meta/portmap'] as const;
export const COREDNS_VERSION = '1.15.0';
export const HELM_VERSION = '3.22.0';
// The cluster mode's storage: PersistentVolumeClaims provisioned as folders on the node (issue 34's model cache).
export const LOCAL_PATH_PROVISIONER_VERSION = '0.0.30';
export const LOCAL_PATH_PROVISIONER_MODULE = 'github.com/rancher/local-path-provisioner';
/** The upstream's own install manifest, kept beside the binary (the cluster mode applies it with the image it builds). */
export const LOCAL_PATH_PROVISIONER_MANIFEST = 'local-path-storage.yaml';
// The cluster mode's Gateway API implementation (controller and data plane in one binary). 3.6.12 is the
// newest release whose dependencies the module proxy here serves in full (3.7's need a nested module of
// Traefik's own repository and DNS libraries it does not serve).
export const TRAEFIK_VERSION = '3.6.12';
export const TRAEFIK_MODULE = 'github.com/traefik/traefik/v3';
// The Gateway API's own CRDs, at the version Traefik 3.6 implements (its go.mod's), kept beside its binary.
export const GATEWAY_API_VERSION = '1.4.0';
export const GATEWAY_API_MODULE = 'sigs.k8s.io/gateway-api';
/** The standard channel's CRD files Traefik watches, copied from the module into `gateway-api-crds/` beside the binary. */
export const GATEWAY_API_CRD_DIR = 'gateway-api-crds';
export const GATEWAY_API_CRD_FILES = ['gatewayclasses', 'gateways', 'httproutes', 'grpcroutes', 'referencegrants', 'backendtlspolicies'].map((p) => `gateway.networking.k8s.io_${p}.yaml`);

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'temporal',
    version: TEMPORAL_VERSION,
    envVar: 'KUBEAIRUNWAY_TEMPORAL_BIN',
    build: 'temporal',
    role: 'stack',
    versionArgs: ['--version'],
    versionPattern: /temporal version (\d+\.\d+\.\d+)/,
  },
  {
    name: 'etcd',
    version: ETCD_VERSION,
    envVar: 'KUBEAIRUNWAY_ETCD_BIN',
    build: 'etcd',
    role: 'stack',
    versionArgs: ['--version'],
    versionPattern: /etcd Version: (\d+\.\d+\.\d+)/,
  },
  {
    name: 'kube-apiserver',
    version: KUBERNETES_VERSION,
    envVar: 'KUBEAIRUNWAY_KUBE_APISERVER_BIN',
    build: 'kubernetes',
    role: 'stack',
    versionArgs: ['--version'],
    versionPattern: /Kubernetes v(\d+\.\d+\.\d+)/,
  },
  {
    name: 'kube-controller-manager',
    version: KUBERNETES_VERSION,
    envVar: 'KUBEAIRUNWAY_KUBE_CONTROLLER_MANAGER_BIN',
    build: 'kubernetes',
    role: 'stack',
    versionArgs: ['--version'],
    versionPattern: /Kubernetes v(\d+\.\d+\.\d+)/,
  },
  {
    name: 'kuberay-operator',
    version: KUBERAY_VERSION,
    envVar: 'KUBEAIRUNWAY_KUBERAY_OPERATOR_BIN',
    build: 'kuberay',
    role: 'operator',
    // No version flag: `go version -m` reads the main module's version from the binary.
    versionArgs: [],
    versionPattern: /^\s+mod\s+github\.com\/ray-project\/kuberay\/ray-operator\s+v(\d+\.\d+\.\d+)\s/m,
    goModule: KUBERAY_MODULE,
  },
  {
    name: 'keda-operator',
    version: KEDA_VERSION,
    envVar: 'KUBEAIRUNWAY_KEDA_OPERATOR_BIN',
    build: 'keda',
    role: 'operator',
    // Built inside a throwaway module: `go version -m` names the module of the main package on its
    // `mod` line (Go 1.26), older toolchains list it as a `dep` of the throwaway module.
    versionArgs: [],
    versionPattern: /^\s+(?:mod|dep)\s+github\.com\/kedacore\/keda\/v2\s+v(\d+\.\d+\.\d+)\s/m,
    goModule: KEDA_MODULE,
  },
  // The cluster mode's node and control-plane additions: the API server's release, built the same way
  // but in a throwaway module of their own (a separate build group, so building them never rebuilds the
  // stack's two binaries), all three in one `go build`.
  ...(['kubelet', 'kube-scheduler', 'kube-proxy'] as const).map(
    (name): ToolSpec => ({
      name,
      version: KUBERNETES_VERSION,
      envVar: `KUBEAIRUNWAY_${name.toUpperCase().replaceAll('-', '_')}_BIN`,
      build: 'kubernetes-node',
      role: 'cluster',
      versionArgs: ['--version'],
      versionPattern: /Kubernetes v(\d+\.\d+\.\d+)/,
    }),
  ),
  {
    name: 'cni-plugins',
    version: CNI_PLUGINS_VERSION,
    envVar: 'KUBEAIRUNWAY_CNI_PLUGINS_DIR',
    build: 'cni-plugins',
    role: 'cluster',
    // Run without CNI_COMMAND, a plugin prints its "about" line (`CNI bridge plugin v1.10.0`) and exits 0.
    versionArgs: [],
    versionPattern: /^CNI [a-z-]+ plugin v(\d+\.\d+\.\d+)$/m,
    programs: CNI_PLUGIN_PACKAGES.map((p) => p.split('/').pop()!),
  },
  {
    name: 'coredns',
    version: COREDNS_VERSION,
    envVar: 'KUBEAIRUNWAY_COREDNS_BIN',
    build: 'coredns',
    role: 'cluster',
    versionArgs: ['-version'],
    versionPattern: /^CoreDNS-(\d+\.\d+\.\d+)$/m,
  },
  {
    name: 'helm',
    version: HELM_VERSION,
    envVar: 'KUBEAIRUNWAY_HELM_BIN',
    build: 'helm',
    role: 'cluster',
    versionArgs: ['version', '--short'],
    // `v3.22.0` (release builds append `+g<commit>`, which this build has no commit for).
    versionPattern: /^v(\d+\.\d+\.\d+)(?:\+g[0-9a-f]+)?$/m,
  },
  {
    name: 'local-path-provisioner',
    version: LOCAL_PATH_PROVISIONER_VERSION,
    envVar: 'KUBEAIRUNWAY_LOCAL_PATH_PROVISIONER_BIN',
    build: 'local-path-provisioner',
    role: 'cluster',
    // `local-path-provisioner version v0.0.30` (the version is stamped at build time as upstream's Makefile does).
    versionArgs: ['--version'],
    versionPattern: /version v(\d+\.\d+\.\d+)$/m,
  },
  {
    name: 'traefik',
    version: TRAEFIK_VERSION,
    envVar: 'KUBEAIRUNWAY_TRAEFIK_BIN',
    build: 'traefik',
    role: 'cluster',
    // `Version:      v3.6.12` (stamped at build time as upstream's release build does).
    versionArgs: ['version'],
    versionPattern: /^Version:\s+v(\d+\.\d+\.\d+)$/m,
  },
];

/** The upstream CRD files shipped inside a Go module, copied into the tools cache by `npm run tools`. */
export interface CrdBundleSpec {
  name: 'kuberay-crds' | 'keda-crds';
  module: string;
  version: string;
  /** Paths inside the module. */
  files: readonly string[];
}

export const CRD_BUNDLES: readonly CrdBundleSpec[] = [
  {
    name: 'kuberay-crds',
    module: KUBERAY_MODULE,
    version: KUBERAY_VERSION,
    // RayJob too: the KubeRay operator watches all three kinds and does not start without their CRDs.
    files: ['config/crd/bases/ray.io_rayservices.yaml', 'config/crd/bases/ray.io_rayclusters.yaml', 'config/crd/bases/ray.io_rayjobs.yaml'],
  },
  {
    name: 'keda-crds',
    module: KEDA_MODULE,
    version: KEDA_VERSION,
    // All six: the KEDA operator watches each kind and does not start without its CRD.
    files: [
      'config/crd/bases/keda.sh_scaledobjects.yaml',
      'config/crd/bases/keda.sh_triggerauthentications.yaml',
      'config/crd/bases/keda.sh_clustertriggerauthentications.yaml',
      'config/crd/bases/keda.sh_scaledjobs.yaml',
      'config/crd/bases/eventing.keda.sh_cloudeventsources.yaml',
      'config/crd/bases/eventing.keda.sh_clustercloudeventsources.yaml',
    ],
  },
];

/**
 * A Java program that Maven Central ships as jars (not built here): its artifact and all it depends on
 * are copied into one folder of the tools cache, and `java -cp '<folder>/*' <mainClass>` runs it.
 */
export interface MavenToolSpec {
  name: 'temporal-test-server';
  groupId: string;
  artifactId: string;
  version: string;
  mainClass: string;
  /** Environment variable that points at a folder holding these jars instead of fetching them. */
  envVar: string;
}

// The Java SDK's time-skipping test server: the same service `TestWorkflowEnvironment.createTimeSkipping()`
// downloads at run time (which this machine cannot), served on a port for the workflow tests.
const TEMPORAL_TEST_SERVER_VERSION = '1.31.0';

export const TEMPORAL_TEST_SERVER: MavenToolSpec = {
  name: 'temporal-test-server',
  groupId: 'io.temporal',
  artifactId: 'temporal-test-server',
  version: TEMPORAL_TEST_SERVER_VERSION,
  mainClass: 'io.temporal.testserver.TestServer',
  envVar: 'KUBEAIRUNWAY_TEMPORAL_TEST_SERVER_JARS',
};

export function crdBundleSpec(name: CrdBundleSpec['name']): CrdBundleSpec {
  const spec = CRD_BUNDLES.find((b) => b.name === name);
  if (!spec) throw new Error(`unknown CRD bundle ${name}`);
  return spec;
}

export function toolSpec(name: ToolName): ToolSpec {
  const spec = TOOLS.find((t) => t.name === name);
  if (!spec) throw new Error(`unknown tool ${name}`);
  return spec;
}

// Builds what the cluster mode runs beside the stack and the node's Kubernetes binaries: the CNI plugins
// of the pod network, CoreDNS and the Helm client, from the Go module proxy (see build.ts for the shared
// steps). None of the three modules has a replace directive at these versions, so `go install` builds
// each as released, with the version its own release build stamps in.
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { downloadModule, goEnv, goInstall, run } from './run.ts';
import {
  CNI_PLUGIN_PACKAGES,
  CNI_PLUGINS_MODULE,
  CNI_PLUGINS_VERSION,
  COREDNS_VERSION,
  GATEWAY_API_CRD_DIR,
  GATEWAY_API_CRD_FILES,
  GATEWAY_API_MODULE,
  GATEWAY_API_VERSION,
  HELM_VERSION,
  LOCAL_PATH_PROVISIONER_MANIFEST,
  LOCAL_PATH_PROVISIONER_MODULE,
  LOCAL_PATH_PROVISIONER_VERSION,
  TRAEFIK_MODULE,
  TRAEFIK_VERSION,
} from './versions.ts';

/**
 * The four plugins in one `go install` (one module version, shared packages), moved into `out`: the
 * folder containerd's CNI `bin_dir` points at. The plugins print BuildVersion in their "about" line;
 * upstream's build script sets it from the release tag the same way.
 */
export async function buildCniPlugins(work: string, out: string, logFile: string): Promise<void> {
  const ldflags = `-s -w -X ${CNI_PLUGINS_MODULE}/pkg/utils/buildversion.BuildVersion=v${CNI_PLUGINS_VERSION}`;
  const packages = CNI_PLUGIN_PACKAGES.map((p) => `${CNI_PLUGINS_MODULE}/${p}@v${CNI_PLUGINS_VERSION}`);
  const gobin = await goInstall(`go install ${CNI_PLUGIN_PACKAGES.length} CNI plugins ${CNI_PLUGINS_VERSION}`, packages, ldflags, work, logFile);
  for (const p of CNI_PLUGIN_PACKAGES) {
    const name = p.split('/').pop()!;
    renameSync(join(gobin, name), join(out, name));
  }
}

/** CoreDNS's version is a constant in its source (coremain.CoreVersion), so no ldflags are needed for it. */
export async function buildCoredns(work: string, out: string, logFile: string): Promise<void> {
  const gobin = await goInstall(`go install coredns ${COREDNS_VERSION}`, [`github.com/coredns/coredns@v${COREDNS_VERSION}`], '-s -w', work, logFile);
  renameSync(join(gobin, 'coredns'), join(out, 'coredns'));
}

/**
 * Helm's source says only `v3.22`; its Makefile stamps the full version, and the Kubernetes version that
 * `helm template` and `helm lint` assume without a cluster (the client-go minor Helm is built with, as
 * 1.<minor>), which otherwise stays at 1.20. Both are set here the same way.
 */
export async function buildHelm(work: string, out: string, logFile: string): Promise<void> {
  const module = 'helm.sh/helm/v3';
  const info = await downloadModule(module, HELM_VERSION, work, logFile);
  const clientGo = /^\s*k8s\.io\/client-go v0\.(\d+)\./m.exec(readFileSync(info.GoMod, 'utf8'))?.[1];
  if (!clientGo) throw new Error(`${module}@v${HELM_VERSION}'s go.mod requires no k8s.io/client-go v0.x`);
  const ldflags = ['-s', '-w', `-X ${module}/internal/version.version=v${HELM_VERSION}`];
  for (const pkg of ['pkg/lint/rules', 'pkg/chartutil']) ldflags.push(`-X ${module}/${pkg}.k8sVersionMajor=1`, `-X ${module}/${pkg}.k8sVersionMinor=${clientGo}`);
  const gobin = await goInstall(`go install helm ${HELM_VERSION}`, [`${module}/cmd/helm@v${HELM_VERSION}`], ldflags.join(' '), work, logFile);
  renameSync(join(gobin, 'helm'), join(out, 'helm'));
}

/**
 * Rancher's local-path provisioner as released (its go.mod has no replace directive), with the version
 * its Makefile stamps into `main.VERSION`; its own install manifest (`deploy/local-path-storage.yaml`) is
 * kept beside the binary, so the cluster mode installs it as upstream ships it, with only the images and
 * the storage folder set (devstack/cluster/local-path.ts).
 */
export async function buildLocalPathProvisioner(work: string, out: string, logFile: string): Promise<void> {
  const module = LOCAL_PATH_PROVISIONER_MODULE;
  const info = await downloadModule(module, LOCAL_PATH_PROVISIONER_VERSION, work, logFile);
  const ldflags = `-s -w -X main.VERSION=v${LOCAL_PATH_PROVISIONER_VERSION}`;
  const gobin = await goInstall(`go install local-path-provisioner ${LOCAL_PATH_PROVISIONER_VERSION}`, [`${module}@v${LOCAL_PATH_PROVISIONER_VERSION}`], ldflags, work, logFile);
  renameSync(join(gobin, 'local-path-provisioner'), join(out, 'local-path-provisioner'));
  copyFileSync(join(info.Dir, 'deploy', 'local-path-storage.yaml'), join(out, LOCAL_PATH_PROVISIONER_MANIFEST));
}

/**
 * Traefik as released: its go.mod has replace directives, so `go install` refuses it; it is built from a
 * copy of its module (read-only in GOMODCACHE) with its own go.mod and go.sum, as its release build does,
 * with the version its release build stamps in. The Gateway API's CRDs at the version Traefik implements
 * go beside the binary (`gateway-api-crds/`): the cluster mode installs them as the Gateway API ships them.
 */
export async function buildTraefik(work: string, out: string, logFile: string): Promise<void> {
  const info = await downloadModule(TRAEFIK_MODULE, TRAEFIK_VERSION, work, logFile);
  const source = join(work, 'traefik-src');
  rmSync(source, { recursive: true, force: true });
  cpSync(info.Dir, source, { recursive: true });
  await run('make the Traefik source copy writable', 'chmod', ['-R', 'u+w', source], { cwd: work, logFile });
  const ldflags = `-s -w -X ${TRAEFIK_MODULE}/pkg/version.Version=v${TRAEFIK_VERSION}`;
  await run(`go build traefik ${TRAEFIK_VERSION}`, 'go', ['build', '-trimpath', '-ldflags', ldflags, '-o', join(out, 'traefik'), './cmd/traefik'], { cwd: source, env: goEnv, logFile });
  rmSync(source, { recursive: true, force: true });
  const crds = await downloadModule(GATEWAY_API_MODULE, GATEWAY_API_VERSION, work, logFile);
  const into = join(out, GATEWAY_API_CRD_DIR);
  mkdirSync(into, { recursive: true });
  for (const file of GATEWAY_API_CRD_FILES) {
    copyFileSync(join(crds.Dir, 'config', 'crd', 'standard', file), join(into, file));
    chmodSync(join(into, file), 0o644);
  }
}

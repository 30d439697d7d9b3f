// Builds the upstream operators that the end-to-end tests run for real: KubeRay's and KEDA's, from the
// Go module proxy, like the stack's own binaries (see build.ts for the shared steps).
import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { downloadModule, freshModule, goEnv, goInstall, run } from './run.ts';
import { KEDA_MODULE, KEDA_VERSION, KUBERAY_MODULE, KUBERAY_VERSION } from './versions.ts';

/** ray-operator's go.mod has no replace directive, so `go install` builds it as released. */
export async function buildKuberayOperator(work: string, out: string, logFile: string): Promise<void> {
  const gobin = await goInstall(`go install ray-operator ${KUBERAY_VERSION}`, [`${KUBERAY_MODULE}@v${KUBERAY_VERSION}`], '-s -w', work, logFile);
  renameSync(join(gobin, 'ray-operator'), join(out, 'kuberay-operator'));
}

interface GoModEdit {
  Replace?: { Old: { Path: string; Version?: string }; New: { Path: string; Version?: string } }[];
  Exclude?: { Path: string; Version: string }[];
}

const at = (m: { Path: string; Version?: string }) => (m.Version ? `${m.Path}@${m.Version}` : m.Path);

/**
 * KEDA's go.mod replaces a dependency (with a pseudo-version the proxy serves), and `go install` refuses
 * a module with replace directives. A throwaway module that requires KEDA and carries the same replace
 * (and exclude) directives resolves the same dependency graph; its operator is `cmd/operator`.
 */
export async function buildKedaOperator(work: string, out: string, logFile: string): Promise<void> {
  freshModule(work, 'keda-build');
  const info = await downloadModule(KEDA_MODULE, KEDA_VERSION, work, logFile);
  const mod = JSON.parse(execFileSync('go', ['mod', 'edit', '-json', info.GoMod], { cwd: work, encoding: 'utf8' })) as GoModEdit;
  const edits = [
    ...(mod.Replace ?? []).filter((r) => !r.New.Path.startsWith('.')).map((r) => `-replace=${at(r.Old)}=${at(r.New)}`),
    ...(mod.Exclude ?? []).map((e) => `-exclude=${e.Path}@${e.Version}`),
  ];
  if (edits.length > 0) await run(`copy KEDA's ${edits.length} replace/exclude directive(s)`, 'go', ['mod', 'edit', ...edits], { cwd: work, env: goEnv, logFile });
  const pkg = `${KEDA_MODULE}/cmd/operator`;
  await run(`go get keda ${KEDA_VERSION}`, 'go', ['get', `${pkg}@v${KEDA_VERSION}`], { cwd: work, env: goEnv, logFile });
  // KEDA prints this version in its start-up banner; its release builds set it the same way.
  const ldflags = `-s -w -X ${KEDA_MODULE}/version.Version=${KEDA_VERSION}`;
  await run(`go build keda-operator ${KEDA_VERSION}`, 'go', ['build', '-trimpath', '-ldflags', ldflags, '-o', join(out, 'keda-operator'), pkg], { cwd: work, env: goEnv, logFile });
}

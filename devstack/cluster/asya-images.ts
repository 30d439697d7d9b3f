import { join } from 'node:path';
import { DEFAULT_SIDECAR_IMAGE } from '../../api/asya/defaults.ts';
import { aptInstall, ensureDerivedImage, ensureNodeBaseImage } from '../docker-images.ts';
import type { DockerEngine } from '../docker.ts';
import { importAs, type KubeletNode } from '../kubelet-node.ts';

// Asya's pods on the cluster's real node (issue 33). An AsyncActor's pod has two containers: the runtime
// (the user's image, running the script kubeairunway puts in the namespace's ConfigMap asya-runtime) and
// the sidecar (Asya's image). Neither `python:3.13` (the examples' runtime image) nor `asya-sidecar` is on
// a registry here, so the node holds Debian trixie's python3 under the first name and, under the second, a
// stand-in that talks to the runtime over its socket once and prints the reply
// (asya-sidecar-standin.py). The runtime script, the probes, the shared socket folder and the pod are real.

/** The runtime image examples/async-actor-standalone.yaml names. */
export const ASYA_RUNTIME_IMAGE = 'python:3.13';

/** Builds both images (once), tags them with the names pods ask for and imports them into the node. */
export async function loadAsyaImages(engine: DockerEngine, node: KubeletNode, log: (line: string) => void): Promise<void> {
  const base = await ensureNodeBaseImage(engine, log);
  const python = await ensureDerivedImage(engine, 'kubeairunway-local/python3-trixie', [`FROM ${base}`, aptInstall('python3'), 'RUN python3 --version', 'CMD ["python3"]'], { log });
  const sidecar = await ensureDerivedImage(
    engine,
    'kubeairunway-local/asya-sidecar-standin',
    [`FROM ${python}`, 'COPY asya-sidecar-standin.py /usr/local/bin/asya-sidecar-standin.py', 'CMD ["python3", "/usr/local/bin/asya-sidecar-standin.py"]'],
    { files: { 'asya-sidecar-standin.py': join(import.meta.dirname, 'asya-sidecar-standin.py') }, log },
  );
  await importAs(engine, node, [
    [python, ASYA_RUNTIME_IMAGE],
    [sidecar, DEFAULT_SIDECAR_IMAGE],
  ]);
  log(`Asya's images imported into the node: ${ASYA_RUNTIME_IMAGE} (Debian's python3), ${DEFAULT_SIDECAR_IMAGE} (a stand-in)`);
}

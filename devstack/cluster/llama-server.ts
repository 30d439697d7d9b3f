import { join } from 'node:path';
import type { DockerEngine } from '../docker.ts';
import { aptInstallFromSuite, ensureDerivedImage, ensureNodeBaseImage } from '../docker-images.ts';

// The inference server the cluster mode runs for real (issue 34): Debian's llama.cpp, whose `llama-server`
// is the binary upstream's `ghcr.io/ggml-org/llama.cpp:server` image runs as its entrypoint, so a pod
// rendered for the upstream image runs unchanged on this one. No registry serves that image here.
//
// Debian ships llama.cpp from forky (testing) on, built against forky's C library, so the image takes
// forky's packages onto the trixie base (the C library and the C++ runtime move up with them). Beside the
// server: Debian's GGUF reference writer and tiny-model.py, which writes the small random-weights model the
// tests and the README tour serve (no registry serves model weights either).

/** The image's name: built as `<name>-<recipe digest>` (ensureDerivedImage), then tagged with this too. */
export const LLAMA_SERVER_IMAGE = 'kubeairunway-local/llama-server:forky';
/** Where the image keeps the model maker. */
export const TINY_MODEL_SCRIPT = '/usr/local/bin/tiny-model.py';
const SUITE = 'forky';

/**
 * Builds the image once (later calls find it by its recipe's tag) and tags it LLAMA_SERVER_IMAGE: a
 * tag other than `latest`, so pods that name it get the kubelet's IfNotPresent (no registry to pull from).
 */
export async function ensureLlamaServerImage(engine: DockerEngine, log: (line: string) => void = () => undefined): Promise<string> {
  const base = await ensureNodeBaseImage(engine, log);
  const built = await ensureDerivedImage(
    engine,
    LLAMA_SERVER_IMAGE.replace(':', '-'),
    [
      `FROM ${base}`,
      ...aptInstallFromSuite(SUITE, 'llama.cpp-tools', 'python3-gguf', 'python3-numpy'),
      'RUN llama-server --version',
      `COPY tiny-model.py ${TINY_MODEL_SCRIPT}`,
      'EXPOSE 8080',
      'ENTRYPOINT ["/usr/bin/llama-server"]',
    ],
    { files: { 'tiny-model.py': join(import.meta.dirname, 'tiny-model.py') }, log, timeoutMs: 20 * 60_000 },
  );
  await engine.run(['tag', built, LLAMA_SERVER_IMAGE], { timeoutMs: 30_000 });
  return LLAMA_SERVER_IMAGE;
}

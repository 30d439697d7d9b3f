// The two containerd runtimes the Kybernate and containerd tests run against, each a real containerd:
// - the host's: Debian 12's containerd with its CRIU (3.17), which cannot dump on recent kernels: the
//   CRIU-fails path users with an old CRIU meet (test names and expectations follow `criu check`);
// - the Kybernate node container: trixie's containerd 1.7 and runc, forky's CRIU 4.2, on the private Docker engine
//   (devstack/kybernate-node.ts), where checkpoints and restores really happen.
import { baseImageUnavailable } from '../../devstack/docker-images.ts';
import { dockerUnavailable } from '../../devstack/docker.ts';
import { containerdUnavailable, criuStatus, startContainerd, type Containerd, type CriuStatus } from '../../devstack/containerd.ts';
import { startNodeWithEngine } from '../../devstack/dev-node.ts';

export interface NodeRuntime {
  /** For test titles: where containerd runs. */
  label: string;
  /** Why this runtime cannot run here (the tests skip, saying so), or undefined. */
  unavailable: string | undefined;
  /** What CRIU can do there, known before the tests are named (the node's is checked at start). */
  criu: CriuStatus;
  /** Starts containerd with its state in `<dir>/containerd`; `stop()` on the result ends everything started. */
  start(dir: string, log?: (line: string) => void): Promise<Containerd>;
}

function hostRuntime(): NodeRuntime {
  const unavailable = containerdUnavailable();
  return {
    label: 'the host containerd',
    unavailable,
    criu: unavailable ? { works: false, version: undefined, reason: unavailable } : criuStatus(),
    start: (dir, log) => startContainerd(dir, log ? { log } : {}),
  };
}

function nodeContainerRuntime(): NodeRuntime {
  const unavailable = containerdUnavailable() ?? dockerUnavailable() ?? baseImageUnavailable();
  // The node image is refused at build when its CRIU is older than 4, and `criu check` runs at start.
  const criu: CriuStatus = unavailable ? { works: false, version: undefined, reason: unavailable } : { works: true, version: "4.2 (Debian forky's, in the node container)", reason: undefined };
  return {
    label: 'the Kybernate node container',
    unavailable,
    criu,
    async start(dir, log) {
      // As `npm run dev -- --kybernate-node` starts it: engine, node, `criu check`.
      const running = await startNodeWithEngine(dir, log ? { log } : {});
      criu.version = running.criuVersion;
      return { ...running.node, stop: running.stop };
    },
  };
}

/** Host first (the CRIU-fails path), then the node container (CRIU that works). */
export const NODE_RUNTIMES: readonly NodeRuntime[] = [hostRuntime(), nodeContainerRuntime()];

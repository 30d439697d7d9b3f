import { OBJECT_CACHE_PORT, SESSION_MANAGER_PORT } from '../../api/flame/names.ts';
import { WAIT_IMAGE } from '../../render/flame/render.ts';
import type { DockerEngine } from '../docker.ts';
import { BUSYBOX_IMAGE, ensureBusyboxImages, importAs, type KubeletNode } from '../kubelet-node.ts';

// Flame's pods on the cluster's real node (issue 33). Flame's images (xflops/flame-session and
// xflops/flame-executor) are on no registry this machine reaches, and Flame is Rust, whose crates are
// not served here either: the pods run stand-ins that answer what the rendered pods are probed on —
// the session manager's `GET /healthz` on 8080, the executor managers' TCP port 9090 — with busybox's
// httpd. Everything around them is real: the kubelet starts them, the probes pass or fail for real, the
// executors' init container waits on the session manager's Service through kube-proxy and CoreDNS.
// The stand-ins are imported under the names examples/flame-cluster.yaml gives (as an air-gapped cluster
// is preloaded), so the example applies unchanged, and so is busybox under the init container's name.

/** The images examples/flame-cluster.yaml names. */
export const FLAME_EXAMPLE_IMAGES = { sessionManager: 'xflops/flame-session:v0.1.0', executorManager: 'xflops/flame-executor:v0.1.0' };

const STANDIN = 'kubeairunway-local/flame-standin';
/** httpd in the background of a shell that exits on SIGTERM: as PID 1 without a handler it would be ignored, and each deletion would wait out the grace period. */
const serve = (port: number) => ['/bin/sh', '-c', `trap 'exit 0' TERM; busybox httpd -f -p ${port} -h /www & wait`];

/** Makes the stand-ins (once), tags them and busybox with the example's names, and imports them into the node. */
export async function loadFlameImages(engine: DockerEngine, node: KubeletNode, log: (line: string) => void): Promise<void> {
  const [session, executor] = await ensureBusyboxImages(engine, log, [
    { tag: `${STANDIN}:session-manager`, cmd: serve(SESSION_MANAGER_PORT), files: { '/www/healthz': 'ok\n' } },
    { tag: `${STANDIN}:executor-manager`, cmd: serve(OBJECT_CACHE_PORT), files: { '/www/healthz': 'ok\n' } },
  ]);
  const names = await importAs(engine, node, [
    [session!, FLAME_EXAMPLE_IMAGES.sessionManager],
    [executor!, FLAME_EXAMPLE_IMAGES.executorManager],
    [BUSYBOX_IMAGE, WAIT_IMAGE],
  ]);
  log(`Flame's images imported into the node as stand-ins: ${names.join(', ')}`);
}

import { ContainerdError } from './errors.ts';

/**
 * The containerd container id in a pod's `status.containerStatuses[].containerID`, which kubelet writes
 * as `<runtime>://<id>`. Another runtime's id (cri-o, docker) is refused: this client cannot reach it.
 */
export function containerIdFromStatus(containerID: string): string {
  const m = /^([a-z0-9-]+):\/\/([0-9a-zA-Z][\w.-]*)$/.exec(containerID);
  if (!m) throw new ContainerdError('Invalid', undefined, `not a container id of the form <runtime>://<id>: ${JSON.stringify(containerID)}`);
  if (m[1] !== 'containerd') throw new ContainerdError('Invalid', undefined, `container ${m[2]} runs on ${m[1]}, not containerd`);
  return m[2]!;
}

/** The namespace kubelet's containers live in (CRI's). */
export const KUBERNETES_NAMESPACE = 'k8s.io';

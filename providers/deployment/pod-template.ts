// The pod template of one serving role, kept in one small function so further volumes and mounts (model
// storage) are added in one place. Pods carry managed-by and the `kubeairunway.ai/model-deployment`
// label (status finds them by it), their role, and the user's pod labels and annotations (seed §4.12:
// the ModelDeployment's own labels go to the Deployment, not to pods, so relabelling it restarts nothing).

import { sortedMap } from '../shared/canonical.ts';
import { ownedObjectSelector } from '../shared/metadata.ts';
import type { ResolvedSpec } from '../shared/spec.ts';
import { ROLE_LABEL, SHM_VOLUME, type ServingRole } from './defaults.ts';
import type { DeploymentSettings } from './overrides.ts';
import type { ModelStorage } from '../shared/storage.ts';

export function podTemplate(
  spec: ResolvedSpec,
  role: ServingRole,
  container: Record<string, unknown>,
  sharedMemory: boolean,
  settings: DeploymentSettings,
  storage: ModelStorage['volumes'],
): Record<string, unknown> {
  // Controller labels win over pod labels of the same key: the selectors depend on them.
  const labels = sortedMap({ ...spec.podLabels, ...ownedObjectSelector(spec.name), [ROLE_LABEL]: role });
  const annotations = sortedMap(spec.podAnnotations);
  const shm = sharedMemory ? [{ name: SHM_VOLUME, emptyDir: { medium: 'Memory', ...(settings.shmSize ? { sizeLimit: settings.shmSize } : {}) } }] : [];
  const volumes = [...shm, ...storage];
  return {
    metadata: { labels, ...(annotations ? { annotations } : {}) },
    spec: {
      containers: [container],
      ...(Object.keys(spec.nodeSelector).length > 0 ? { nodeSelector: sortedMap(spec.nodeSelector) } : {}),
      ...(spec.tolerations.length > 0 ? { tolerations: spec.tolerations } : {}),
      ...(settings.serviceAccountName ? { serviceAccountName: settings.serviceAccountName } : {}),
      ...(volumes.length > 0 ? { volumes } : {}),
    },
  };
}

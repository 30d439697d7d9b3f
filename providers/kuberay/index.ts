import type { ProviderDefinition } from '../contract.ts';
import { CLAIM_OWNED_KIND } from '../shared/storage.ts';
import { kuberayCompatibility } from './compatibility.ts';
import { KUBERAY_CONFIG, KUBERAY_DISPLAY_NAME, KUBERAY_NAME, KUBERAY_RESOURCE } from './config.ts';
import { KUBERAY_OVERRIDE_SCHEMA } from './overrides.ts';
import { renderKuberay } from './render.ts';
import { mapKuberayStatus } from './status.ts';
import { kuberayServingEndpoint } from './serving.ts';

export const kuberayProvider: ProviderDefinition = {
  name: KUBERAY_NAME,
  displayName: KUBERAY_DISPLAY_NAME,
  config: KUBERAY_CONFIG,
  resource: KUBERAY_RESOURCE,
  overrideSchema: KUBERAY_OVERRIDE_SCHEMA,
  ownedKinds: [
    { apiVersion: `${KUBERAY_RESOURCE.group}/${KUBERAY_RESOURCE.versions[0]}`, kind: KUBERAY_RESOURCE.kind, plural: KUBERAY_RESOURCE.plural },
    // Claims the controller creates for spec.model.storage (providers/shared/storage.ts); a claim the
    // user named is not labelled or owned by us, so cleanup never finds it.
    CLAIM_OWNED_KIND,
  ],
  compatibility: kuberayCompatibility,
  render: renderKuberay,
  servingEndpoint: kuberayServingEndpoint,
  mapStatus: mapKuberayStatus,
};

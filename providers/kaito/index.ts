import type { ProviderDefinition } from '../contract.ts';
import { CLAIM_OWNED_KIND } from '../shared/storage.ts';
import { kaitoCompatibility } from './compatibility.ts';
import { KAITO_CONFIG, KAITO_DISPLAY_NAME, KAITO_NAME, KAITO_RESOURCE } from './config.ts';
import { KAITO_OVERRIDE_SCHEMA } from './overrides.ts';
import { renderKaito } from './render.ts';
import { mapKaitoStatus } from './status.ts';
import { kaitoServingEndpoint } from './serving.ts';

export const kaitoProvider: ProviderDefinition = {
  name: KAITO_NAME,
  displayName: KAITO_DISPLAY_NAME,
  config: KAITO_CONFIG,
  resource: KAITO_RESOURCE,
  overrideSchema: KAITO_OVERRIDE_SCHEMA,
  ownedKinds: [
    { apiVersion: `${KAITO_RESOURCE.group}/${KAITO_RESOURCE.versions[0]}`, kind: KAITO_RESOURCE.kind, plural: KAITO_RESOURCE.plural },
    { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps' },
    // Claims the controller creates for spec.model.storage (providers/shared/storage.ts); a claim the
    // user named is not labelled or owned by us, so cleanup never finds it.
    CLAIM_OWNED_KIND,
  ],
  compatibility: kaitoCompatibility,
  render: renderKaito,
  servingEndpoint: kaitoServingEndpoint,
  mapStatus: mapKaitoStatus,
};

import type { ProviderDefinition } from '../contract.ts';
import { CLAIM_OWNED_KIND } from '../shared/storage.ts';
import { dynamoCompatibility } from './compatibility.ts';
import { DYNAMO_CONFIG, DYNAMO_DISPLAY_NAME, DYNAMO_NAME, DYNAMO_RESOURCE } from './config.ts';
import { DYNAMO_OVERRIDE_SCHEMA } from './overrides.ts';
import { renderDynamo } from './render.ts';
import { mapDynamoStatus } from './status.ts';
import { dynamoServingEndpoint } from './serving.ts';

export const dynamoProvider: ProviderDefinition = {
  name: DYNAMO_NAME,
  displayName: DYNAMO_DISPLAY_NAME,
  config: DYNAMO_CONFIG,
  resource: DYNAMO_RESOURCE,
  overrideSchema: DYNAMO_OVERRIDE_SCHEMA,
  ownedKinds: [
    { apiVersion: `${DYNAMO_RESOURCE.group}/${DYNAMO_RESOURCE.versions[0]}`, kind: DYNAMO_RESOURCE.kind, plural: DYNAMO_RESOURCE.plural },
    // Claims the controller creates for spec.model.storage (providers/shared/storage.ts); a claim the
    // user named is not labelled or owned by us, so cleanup never finds it.
    CLAIM_OWNED_KIND,
  ],
  compatibility: dynamoCompatibility,
  render: renderDynamo,
  servingEndpoint: dynamoServingEndpoint,
  mapStatus: mapDynamoStatus,
};

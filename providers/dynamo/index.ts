import type { ProviderDefinition } from '../contract.ts';
import { dynamoCompatibility } from './compatibility.ts';
import { DYNAMO_CONFIG, DYNAMO_DISPLAY_NAME, DYNAMO_NAME, DYNAMO_RESOURCE } from './config.ts';
import { DYNAMO_OVERRIDE_SCHEMA } from './overrides.ts';
import { renderDynamo } from './render.ts';
import { mapDynamoStatus } from './status.ts';

export const dynamoProvider: ProviderDefinition = {
  name: DYNAMO_NAME,
  displayName: DYNAMO_DISPLAY_NAME,
  config: DYNAMO_CONFIG,
  resource: DYNAMO_RESOURCE,
  overrideSchema: DYNAMO_OVERRIDE_SCHEMA,
  ownedKinds: [
    { apiVersion: `${DYNAMO_RESOURCE.group}/${DYNAMO_RESOURCE.versions[0]}`, kind: DYNAMO_RESOURCE.kind, plural: DYNAMO_RESOURCE.plural },
  ],
  compatibility: dynamoCompatibility,
  render: renderDynamo,
  mapStatus: mapDynamoStatus,
};

// InferenceProviderConfig's CustomResourceDefinition: no reconciled kind of its own, registered by the
// model-deployment module beside ModelDeployment's (`extraCrds`), written by `npm run crds`.

import { PROVIDER_CONFIG } from '../constants.ts';
import { rootSchema } from './common-schemas.ts';
import { customResourceDefinition } from './crd-builder.ts';
import { providerConfigSpecSchema, providerConfigStatusSchema } from './provider-config-schema.ts';

export const providerConfigCrd = customResourceDefinition({
  ...PROVIDER_CONFIG,
  category: 'kubeairunway',
  scope: 'Cluster',
  schema: rootSchema(
    'InferenceProviderConfig registers an inference provider: its capabilities and CEL selection rules.',
    providerConfigSpecSchema,
    providerConfigStatusSchema,
  ),
  printerColumns: [
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
    { name: 'Version', type: 'string', jsonPath: '.status.version' },
  ],
});

// ModelDeployment's CustomResourceDefinition (seed 001): its schema with the printer columns and the
// scale subresource. The model-deployment kind module registers it (kinds/model-deployment/), and
// `npm run crds` writes it from there into deploy/crds/.

import { MODEL_DEPLOYMENT } from '../constants.ts';
import { rootSchema } from './common-schemas.ts';
import { customResourceDefinition } from './crd-builder.ts';
import { withFriendlyPatterns } from './friendly-patterns.ts';
import { modelDeploymentSpecSchema, modelDeploymentStatusSchema } from './model-deployment-schema.ts';

export const modelDeploymentCrd = customResourceDefinition({
  ...MODEL_DEPLOYMENT,
  category: 'kubeairunway',
  schema: rootSchema(
    'ModelDeployment is one LLM inference deployment, served by an inference provider (KAITO, Dynamo, KubeRay, ...).',
    withFriendlyPatterns(modelDeploymentSpecSchema),
    modelDeploymentStatusSchema,
  ),
  subresources: {
    status: {},
    // No labelSelectorPath: the pods belong to the provider's resources and carry provider-specific
    // labels, and the seed leaves HPA autoscaling out of scope. `kubectl scale` works without it.
    scale: { specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas.ready' },
  },
  printerColumns: [
    { name: 'Provider', type: 'string', jsonPath: '.status.provider.name' },
    { name: 'Engine', type: 'string', jsonPath: '.spec.engine.type' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.replicas.ready', description: 'Ready replicas' },
  ],
});

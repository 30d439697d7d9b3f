// ModelDeployment (seed 001) as one module: its watch, workflow, CRDs (with InferenceProviderConfig),
// the core activities, the core controller's role and what the CLI, metrics and logs make of it. Its
// providers are not part of it: each is a worker of its own (providers/, worker/provider-worker.ts).

import { PROVIDER_CONFIG_KIND } from '../../api/constants.ts';
import { modelDeploymentCrd } from '../../api/crd/model-deployment-crd.ts';
import { providerConfigCrd } from '../../api/crd/provider-config-crd.ts';
import { deploymentPauseAcknowledged, deploymentStatusView } from './status.ts';
import { SEARCH_ATTRIBUTE_NAMES as SA } from '../../workflows/engine/search-attribute-names.ts';
import { modelDeploymentKind } from '../../watcher/kinds/model-deployment.ts';
import type { KindModule } from '../kind-module.ts';
import { modelDeploymentRole } from './role.ts';
import { modelDeploymentStepOutcomes } from './step-outcomes.ts';

export const modelDeploymentModule: KindModule = {
  name: 'model-deployment',
  kinds: [
    {
      watched: modelDeploymentKind,
     
      workflowModule: 'workflows/model-deployment/model-deployment.ts',
      crd: modelDeploymentCrd,
      presentation: {
        noun: 'deployment',
        owns: 'its provider resources',
        // Md* rather than Kind: histories recorded before there were other kinds have no `Kind`.
        workflowsByName: (namespace, name) => `${SA.MdNamespace} = "${namespace}" AND ${SA.MdName} = "${name}"`,
        status: deploymentStatusView,
        pauseAcknowledged: deploymentPauseAcknowledged,
      },
    },
  ],
  extraCrds: [providerConfigCrd],
  activities: async (ctx) => (await import('../../activities/core/create-core-activities.ts')).createCoreActivities(ctx),
  stepOutcomes: modelDeploymentStepOutcomes,
  offline: { validateOnly: [PROVIDER_CONFIG_KIND], load: async () => (await import('./offline.ts')).modelDeploymentOffline },
  role: modelDeploymentRole,
};


// AsyncActors in `validate` and `render` (loaded by those commands only). An actor may bind to a
// Deployment or StatefulSet given beside it, or to a ModelDeployment rendered earlier in the same run.

import { checkAsyncActor, renderAsyncActorDocument, WORKLOAD_KINDS, type ModelDeploymentFacts } from './manifests.ts';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { OfflineHandlers } from '../kind-module.ts';
import { kindOf } from '../../present/documents.ts';

const issue = (w: { field: string; message: string }) => `${w.field}: ${w.message}`;

export const asyaOffline: OfflineHandlers = {
  validate: (doc) => checkAsyncActor(doc),
  render(doc, session) {
    const warnings = checkAsyncActor(doc).warnings.map(issue);
    const workloads = session.docs.filter((d) => (WORKLOAD_KINDS as readonly (string | undefined)[]).includes(kindOf(d)));
    const modelDeployments = (session.facts.get(MODEL_DEPLOYMENT_KIND) ?? []) as ModelDeploymentFacts[];
    const result = renderAsyncActorDocument(doc, { workloads, modelDeployments });
    if (result.problems.length > 0) return { objects: [], problems: result.problems, warnings: [...warnings, ...result.warnings] };
    return { objects: result.objects, problems: [], warnings: [...warnings, ...result.warnings] };
  },
};

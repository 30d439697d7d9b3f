import { FINALIZER } from '../../api/constants.ts';
import type { CoreActivities } from '../../contract/core-activities.ts';
import { kubeCall } from '../../kube/errors.ts';
import { involved } from '../deployment-ref.ts';
import { assessDeployment } from './assess-deployment.ts';
import { coreClients, type CoreActivityDeps, type CoreClientParts, type CoreClients } from './core-clients.ts';
import { readDeployment } from './read-deployment.ts';
import { selectProvider } from './select-provider.ts';
import { validateDeployment } from './validate-deployment.ts';
import { writeCoreStatus } from './write-core-status.ts';

export type { CoreActivityDeps } from './core-clients.ts';

/** Adds or removes the core's finalizer, guarded by the list it edits (kube/finalizers.ts): status writes bump the object all the time. */
export function setCoreFinalizer(core: CoreClients, present: boolean): CoreActivities['addFinalizer'] {
  return (ref) => core.deployments.setFinalizer(ref, FINALIZER, present);
}

/** An event the workflow asked for, written before the activity completes. */
export function recordEvent(core: CoreClients): CoreActivities['recordEvent'] {
  return (ref, event) => kubeCall('record event', () => core.deployments.recorder.record(involved(ref), event));
}

/** The core controller's side effects. The core knows no provider: it reads InferenceProviderConfigs only. */
export function createCoreActivities(deps: CoreActivityDeps, parts?: CoreClientParts): CoreActivities {
  const core = coreClients(deps, parts);
  const steps = {
    readDeployment: readDeployment(core),
    addFinalizer: setCoreFinalizer(core, true),
    validateDeployment: validateDeployment(core),
    selectProvider: selectProvider(core),
  };
  return {
    ...steps,
    removeFinalizer: setCoreFinalizer(core, false),
    writeCoreStatus: writeCoreStatus(core),
    recordEvent: recordEvent(core),
    assessDeployment: assessDeployment(core, steps),
  };
}

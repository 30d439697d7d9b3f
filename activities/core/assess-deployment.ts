import type { CoreActivities } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { CoreClients } from './core-clients.ts';
import { leavingProvider } from './provider-reports.ts';

/** The steps an assessment runs, where the pass would run them next. */
export type AssessmentSteps = Pick<CoreActivities, 'readDeployment' | 'addFinalizer' | 'validateDeployment' | 'selectProvider'>;

/** One round trip for what a pass's first steps decide: the snapshot, the finalizer, validation, the selection, a switch's leaving provider. */
export function assessDeployment(core: CoreClients, steps: AssessmentSteps): CoreActivities['assessDeployment'] {
  return async function assessDeployment(ref, input) {
    const snapshot = await steps.readDeployment(ref);
    const local = core.inProcessProviders.length ? { inProcessProviders: [...core.inProcessProviders] } : {};
    // A deletion's cleanup needs them too: a run whose first pass finds the object deleting (continued
    // as new, or started by a watcher that restarted) would otherwise send it to the provider's queue.
    if (!snapshot || snapshot.deletionTimestamp || snapshot.paused) return { snapshot, finalizerAdded: false, ...local };
    const seen: ReadRef = { ...ref, seenVersion: snapshot.resourceVersion || ref.seenVersion };
    // The finalizer's write and validation's reads (the Secret's existence is a GET) do not depend on
    // each other: one round trip on the way to the provider resource instead of two.
    const [, validation] = await Promise.all([snapshot.hasFinalizer ? undefined : steps.addFinalizer(seen), steps.validateDeployment(seen)]);
    const switching = snapshot.selectedProvider && snapshot.explicitProvider && snapshot.explicitProvider !== snapshot.selectedProvider;
    const selection = validation.valid && !snapshot.selectedProvider && !switching ? await steps.selectProvider(seen, input) : undefined;
    const leaving = switching ? await leavingProvider(core, snapshot.selectedProvider!) : undefined;
    return { snapshot, finalizerAdded: !snapshot.hasFinalizer, validation, ...(selection ? { selection } : {}), ...(leaving ? { leaving } : {}), ...local };
  };
}

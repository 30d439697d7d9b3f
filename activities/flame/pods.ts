import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { planPods } from '../../render/flame/pod-plan.ts';
import { applyChild, nameOf, PODS, type FlameClients } from './flame-clients.ts';

/**
 * Brings the pods to the plan: those not requested are deleted, stale ones deleted and recreated (or
 * waited for while they terminate), missing ones created. Deletes name the incarnation they mean: a
 * cache that lags must not delete a pod already replaced. Returns the changes and the pods waited for.
 */
export async function applyPods(flame: FlameClients, ref: ReadRef, desired: AnyObject[], existing: AnyObject[]): Promise<{ changes: string[]; waiting: string[] }> {
  const changes: string[] = [];
  const uidOf = new Map(existing.map((p) => [nameOf(p), p.metadata?.uid]));
  const deletePod = (name: string) => kubeCall(`delete pod ${name}`, () => flame.objects.remove({ ...PODS, namespace: ref.namespace, name }, uidOf.get(name)));
  const plan = planPods(desired, existing);
  for (const name of plan.remove) {
    if ((await deletePod(name)) !== 'absent') changes.push(`deleted pod ${name} (not requested)`);
  }
  const waiting = [...plan.waiting];
  for (const pod of plan.recreate) {
    const name = nameOf(pod);
    // A pod on a node terminates for its grace period: its replacement follows once it is gone.
    if ((await deletePod(name)) === 'deleting') {
      waiting.push(name);
      changes.push(`deleting stale pod ${name}`);
      continue;
    }
    await applyChild(flame, PODS, pod);
    changes.push(`recreated pod ${name} (configuration or image changed)`);
  }
  for (const pod of plan.create) {
    await applyChild(flame, PODS, pod);
    changes.push(`created pod ${nameOf(pod)}`);
  }
  return { changes, waiting };
}

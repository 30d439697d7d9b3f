import { jsonEqual } from '../../api/json-equal.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { applyChild, childrenOf, nameOf, SERVICES, type FlameClients } from './flame-clients.ts';

/** The parts of a Service's spec we render; anything else (clusterIP, defaults) is the API server's. */
const SERVICE_FIELDS = ['type', 'selector', 'ports'] as const;

/**
 * A merge patch that puts back a Service edited by someone else, or undefined when it is as rendered.
 * Server-side apply alone retakes the fields we own but keeps what another manager added beside them:
 * a changed port stays next to ours (two ports named alike, which the API server refuses, and every pass
 * would fail) and an added selector key stays (the Service then selects nothing). So these fields are
 * replaced whole: the lists by value, the selector with every key we do not render removed.
 */
export function serviceRepair(live: AnyObject | undefined, desired: AnyObject): object | undefined {
  if (!live) return undefined;
  const have = (live.spec ?? {}) as Record<string, unknown>;
  const want = (desired.spec ?? {}) as Record<string, unknown>;
  if (SERVICE_FIELDS.every((field) => jsonEqual(have[field], want[field]))) return undefined;
  const extraKeys = Object.keys((have.selector ?? {}) as Record<string, string>).map((key) => [key, null]);
  return { spec: { type: want.type, ports: want.ports, selector: { ...Object.fromEntries(extraKeys), ...(want.selector as object) } } };
}

/**
 * The cluster's Services, applied every pass: a deleted one comes back, an edit of a field we own is put
 * back, an edit beside ours is repaired. Listed (or cached) like the pods, not read one by one: a cache
 * that lags an edit only delays its repair to the edit's own wake-up. Returns the changes made.
 */
export async function applyServices(flame: FlameClients, ref: ReadRef, rendered: readonly AnyObject[]): Promise<string[]> {
  const changes: string[] = [];
  const services = new Map((await childrenOf(flame, SERVICES, ref)).map((s) => [nameOf(s), s]));
  for (const service of rendered) {
    const serviceRef = { ...SERVICES, namespace: ref.namespace, name: nameOf(service) };
    const live = services.get(serviceRef.name);
    const repair = serviceRepair(live, service);
    if (repair) {
      const stored = await kubeCall(`restore Service ${serviceRef.name}`, () => flame.objects.mergePatch(serviceRef, repair));
      flame.wrote?.(SERVICES.plural, stored);
      changes.push(`restored Service ${serviceRef.name} (edited)`);
    }
    await applyChild(flame, SERVICES, service);
    if (!live) changes.push(`created Service ${serviceRef.name}`);
  }
  return changes;
}

import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, splitApiVersion, type AnyObject } from '../../kube/custom-objects.ts';
import { resilientInformer, type WatchedObject } from '../../kube/informer.ts';
import { Outage } from '../../kube/outage.ts';
import { GROUP, MODEL_DEPLOYMENT_KIND, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';

/**
 * Simulated upstream operators. The real KAITO, Dynamo and KubeRay operators need GPUs and images;
 * these play their part on the local stack: for each provider resource they write the upstream status
 * the real operator would (progressing, then ready, or failed), so every status-mapping row can be
 * driven end to end.
 *
 * The owning ModelDeployment's annotation `simulator.kubeairunway.ai/outcome` chooses the ending:
 * `ready` (default), `hold` (stay progressing), or `fail: <message>`. Unless it fails, an operator that
 * runs a workload (KAITO) also creates that, as the real one does.
 */
export const OUTCOME_ANNOTATION = 'simulator.kubeairunway.ai/outcome';

export interface UpstreamScript {
  group: string;
  /** The version watched and written when `versions` names none the CRD serves (or the CRD cannot be read). */
  version: string;
  /**
   * Versions the operator works in, preferred first: the simulator watches the first one the installed
   * CRD serves, as the controller renders the first one it supports. Read once at start: a CRD whose
   * served versions change needs the simulator started again.
   */
  versions?: readonly string[];
  plural: string;
  /** The status while the operator is still working. */
  progressing(obj: AnyObject): Record<string, unknown>;
  ready(obj: AnyObject): Record<string, unknown>;
  failed(obj: AnyObject, message: string): Record<string, unknown>;
  /**
   * Objects the operator creates for the resource besides its status (KAITO's Deployment and Service).
   * Each is applied under `fieldManager` when missing and then left alone: others may change it (an
   * AsyncActor injects containers under its own field manager), and a later status or spec change of
   * the resource must not undo that.
   */
  workload?: { fieldManager: string; objects(obj: AnyObject): WorkloadObject[] };
}

/** One object of a workload, with the plural that addresses it. */
export interface WorkloadObject {
  plural: string;
  object: AnyObject;
}

export type Outcome = { kind: 'ready' } | { kind: 'hold' } | { kind: 'fail'; message: string };

export function parseOutcome(value: string | undefined): Outcome {
  const v = (value ?? '').trim();
  if (v === 'hold') return { kind: 'hold' };
  if (v.startsWith('fail')) return { kind: 'fail', message: v.replace(/^fail:?\s*/, '') || 'simulated failure' };
  return { kind: 'ready' };
}

/** Keys of a status that say when, not what: a status that differs only in them shows the same state. */
const TIME_KEYS = new Set(['lastTransitionTime', 'lastUpdateTime', 'lastProbeTime', 'lastHeartbeatTime']);

/**
 * Whether `actual` already shows everything `expected` says (extra fields allowed, times ignored; lists
 * compared item by item). A restarted operator finds its resources as it left them and has nothing to
 * redo: a real one does not reset a ready resource to "progressing" because it restarted.
 */
export function showsStatus(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => showsStatus(actual[i], e));
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => TIME_KEYS.has(k) || showsStatus((actual as Record<string, unknown>)[k], v));
  }
  return actual === expected;
}

export interface SimulatorOptions {
  /** How long the simulated operator "works" before reporting ready or failed. */
  readyAfterMs?: number;
  log?: (line: string) => void;
}

export interface Simulator {
  stop(): Promise<void>;
}

/** The first of the script's versions the installed CRD serves; `script.version` when none is (or the CRD cannot be read). */
export async function servedVersion(objects: CustomObjects, script: UpstreamScript): Promise<string> {
  if (!script.versions?.length) return script.version;
  let crd: AnyObject | undefined;
  try {
    crd = await objects.get({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', name: `${script.plural}.${script.group}` });
  } catch {
    return script.version;
  }
  const served = ((crd?.spec as { versions?: { name: string; served?: boolean }[] } | undefined)?.versions ?? []).filter((v) => v.served !== false).map((v) => v.name);
  return script.versions.find((v) => served.includes(v)) ?? script.version;
}

export async function startSimulator(kc: KubeConfig, script: UpstreamScript, opts: SimulatorOptions = {}): Promise<Simulator> {
  const objects = new CustomObjects(kc);
  const version = await servedVersion(objects, script);
  const readyAfter = opts.readyAfterMs ?? 2_000;
  // Generation each object was last simulated for: status writes do not bump it, so no feedback loop.
  const handled = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const path = `/apis/${script.group}/${version}/${script.plural}`;
  const ref = (obj: AnyObject) => ({ group: script.group, version, plural: script.plural, namespace: obj.metadata!.namespace!, name: obj.metadata!.name! });

  const outcomeFor = async (obj: AnyObject): Promise<Outcome> => {
    const owner = obj.metadata?.ownerReferences?.find((o) => o.kind === MODEL_DEPLOYMENT_KIND);
    if (!owner) return { kind: 'ready' };
    const md = await objects.get({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: obj.metadata!.namespace!, name: owner.name });
    return parseOutcome(md?.metadata?.annotations?.[OUTCOME_ANNOTATION]);
  };

  const writeStatus = (obj: AnyObject, status: Record<string, unknown>) => objects.mergePatchStatus(ref(obj), { status });

  const ensureWorkload = async (obj: AnyObject) => {
    for (const { plural, object } of script.workload?.objects(obj) ?? []) {
      const target = { ...splitApiVersion(object.apiVersion!), plural, namespace: obj.metadata!.namespace!, name: object.metadata!.name! };
      const live = await objects.get(target);
      if (!live) {
        await objects.apply(target, object, script.workload!.fieldManager);
        continue;
      }
      // One left by an earlier resource of the same name goes with it (garbage collector); wait for that.
      const controller = live.metadata?.ownerReferences?.find((o) => o.controller);
      if (controller && controller.apiVersion.startsWith(`${script.group}/`) && controller.uid !== obj.metadata?.uid) {
        throw new Error(`${plural} ${target.name} still belongs to an earlier ${controller.kind} of that name`);
      }
    }
  };
  let stopped = false;
  /** A pause that stop() cuts short (the simulation then simply never goes on). */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  // A real operator retries until its status is written; so does this one, so an API server that is
  // down for a moment (the chaos run kills it) leaves no resource stuck in "progressing".
  const simulate = async (obj: AnyObject): Promise<void> => {
    const uid = obj.metadata?.uid;
    const generation = obj.metadata?.generation ?? 0;
    if (!uid || obj.metadata?.deletionTimestamp || handled.get(uid) === generation) return;
    const firstLook = !handled.has(uid);
    handled.set(uid, generation);
    try {
      if (firstLook && obj.status) {
        // Seen for the first time by this process but worked on before (the simulator restarted): when
        // its status already shows where this simulation would end, there is nothing to redo. (A spec
        // change made while it was down goes unnoticed when the ending looks the same: acceptable here.)
        const outcome = await outcomeFor(obj);
        const ending = outcome.kind === 'fail' ? script.failed(obj, outcome.message) : outcome.kind === 'hold' ? script.progressing(obj) : script.ready(obj);
        if (showsStatus(obj.status, ending)) {
          if (outcome.kind !== 'fail') await ensureWorkload(obj);
          return;
        }
      }
      await writeStatus(obj, script.progressing(obj));
      const outcome = await outcomeFor(obj);
      if (outcome.kind !== 'fail') await ensureWorkload(obj);
      if (outcome.kind === 'hold') return;
      await pause(readyAfter);
      const live = await objects.get(ref(obj));
      if (!live || live.metadata?.generation !== generation) return;
      await writeStatus(live, outcome.kind === 'fail' ? script.failed(live, outcome.message) : script.ready(live));
    } catch (err) {
      // A write in flight when stop() came fails once the servers are gone: retrying then would keep the
      // stopped process alive forever (its timers are new, stop() cleared only the earlier ones).
      if (stopped) return;
      opts.log?.(`simulator: status of ${obj.metadata?.namespace}/${obj.metadata?.name} not written (${(err as Error).message.split('\n')[0]}); trying again`);
      if (handled.get(uid) === generation) handled.delete(uid);
      await pause(1_000);
      const latest = informer.get(obj.metadata!.name!, obj.metadata!.namespace) ?? obj;
      if (latest.metadata?.uid === uid) await simulate(latest);
    }
  };

  const outage = new Outage(`simulator ${script.plural}: watch`, (line) => opts.log?.(line));
  const { informer, start, stop } = resilientInformer<WatchedObject>(
    kc,
    path,
    () => objects.listRaw<WatchedObject>({ group: script.group, version, plural: script.plural }),
    { onError: (err) => outage.failed(String((err as Error)?.message ?? err)), onRecovered: () => outage.succeeded() },
  );
  informer.on('add', (o) => void simulate(o));
  informer.on('update', (o) => void simulate(o));
  informer.on('delete', (o) => handled.delete(o.metadata?.uid ?? ''));
  await start();
  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      await stop();
    },
  };
}

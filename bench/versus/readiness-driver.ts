// The one stand-in for the Dynamo operator, used identically for both controllers: it watches
// DynamoGraphDeployments in the bench namespaces and merge-patches each one's status with
// {"state": "successful"} — what both controllers map to Running (ours: providers/dynamo/status.ts,
// ready replicas defaulting to desired). Held, it only records; released, it patches what it holds
// and then each new one at once, so a burst's "created" and "Running" phases can be timed apart.
// It works in a version the stack's DGD CRD serves: upstream serves v1beta1 and v1alpha1 with no
// conversion here, so one watch sees every DGD whichever version a controller wrote it in.
import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, collectionPath, type AnyObject } from '../../kube/custom-objects.ts';
import { forEachLimited } from './concurrency.ts';
import type { DeploymentTracker } from './deployment-tracker.ts';
import { watchCollection, type ObjectWatch } from './object-watch.ts';

const DGD_GROUP = 'nvidia.com';
const DGD_PLURAL = 'dynamographdeployments';
/** In order of preference: the version upstream stores first. Both declare status.state. */
const DGD_VERSIONS = ['v1beta1', 'v1alpha1'];

type DgdRef = { group: string; version: string; plural: string };

/** The DGD version to watch and patch; an error naming the CRD when the stack serves none the bench knows. */
export async function dgdVersion(objects: CustomObjects): Promise<DgdRef> {
  const name = `${DGD_PLURAL}.${DGD_GROUP}`;
  const crd = await objects.get({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', name });
  const served = ((crd?.spec as { versions?: { name: string; served?: boolean }[] } | undefined)?.versions ?? []).filter((v) => v.served).map((v) => v.name);
  const version = DGD_VERSIONS.find((v) => served.includes(v));
  if (!version) throw new Error(`the stack's CRD ${name} serves ${served.length ? served.join(', ') : 'nothing'}; the readiness driver needs one of ${DGD_VERSIONS.join(', ')}`);
  return { group: DGD_GROUP, version, plural: DGD_PLURAL };
}
const READY_STATUS = { status: { state: 'successful' } };
const PATCH_CONCURRENCY = 16;

export class ReadinessDriver {
  /** Status patches sent, so the bench can subtract its own requests from the API server's count. */
  patches = 0;
  private held = true;
  private readonly pending = new Map<string, { namespace: string; name: string }>();
  private readonly patched = new Set<string>();
  private readonly watches: ObjectWatch[] = [];

  private constructor(
    private readonly objects: CustomObjects,
    /** The DynamoGraphDeployment version it watches and patches in. */
    readonly dgd: DgdRef,
  ) {}

  static async start(kc: KubeConfig, trackers: ReadonlyMap<string, DeploymentTracker>): Promise<ReadinessDriver> {
    const objects = new CustomObjects(kc);
    const driver = new ReadinessDriver(objects, await dgdVersion(objects));
    for (const [namespace, tracker] of trackers) {
      driver.watches.push(
        await watchCollection(kc, collectionPath({ ...driver.dgd, namespace }), (type, obj, at) => {
          tracker.onProviderResource(type, obj, at);
          if (type !== 'DELETED') driver.seen(obj);
        }),
      );
    }
    return driver;
  }

  private seen(obj: AnyObject): void {
    const uid = obj.metadata!.uid!;
    if (this.patched.has(uid) || (obj.status as { state?: string } | undefined)?.state === 'successful') return;
    this.pending.set(uid, { namespace: obj.metadata!.namespace!, name: obj.metadata!.name! });
    if (!this.held) void this.flush();
  }

  hold(): void {
    this.held = true;
  }

  /** Patches everything held; from then on each new resource is patched as soon as it is seen. */
  async release(): Promise<void> {
    this.held = false;
    await this.flush();
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.entries()];
    for (const [uid] of batch) {
      this.pending.delete(uid);
      this.patched.add(uid);
    }
    await forEachLimited(batch, PATCH_CONCURRENCY, async ([, ref]) => {
      this.patches++;
      // A resource deleted meanwhile has nothing to report.
      await this.objects.mergePatchStatus({ ...this.dgd, ...ref }, READY_STATUS).catch(() => undefined);
    });
  }

  stop(): void {
    for (const w of this.watches) w.stop();
  }
}

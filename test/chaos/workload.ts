// What users do during the chaos run, and what they should end up with: deployments created (seed
// Example 1), scaled and deleted, each operation retried until the API server takes it (it may be down),
// and the state they asked for recorded for the final checks.
import { readFileSync } from 'node:fs';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import { collectionPath, CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { resilientInformer, type StartedInformer } from '../../kube/informer.ts';

export interface Deletion {
  requestedAt: number;
  goneAt?: number;
}

export class Workload {
  /** Deployments that should exist, with the replicas asked for last. */
  readonly expected = new Map<string, number>();
  readonly deletions = new Map<string, Deletion>();
  readonly counts: Record<string, number> = { created: 0, scaled: 0, deleted: 0 };
  private readonly objects: CustomObjects;
  private readonly template: AnyObject;
  private next = 0;
  /** Creates still on their way (retried while the API server or the webhook is down), by name. */
  private readonly creating = new Map<string, Promise<void>>();
  private watch: StartedInformer<KubernetesObject> | undefined;

  constructor(
    kc: KubeConfig,
    readonly namespace: string,
    private readonly random: () => number,
  ) {
    this.objects = new CustomObjects(kc);
    this.template = parse(readFileSync(new URL('../../examples/gpu-vllm-dynamo.yaml', import.meta.url), 'utf8')) as AnyObject;
    const ref = this.collection();
    // Deletion times as a user sees them: when the object disappears from a watch.
    this.watch = resilientInformer<KubernetesObject>(kc, collectionPath(ref), async () => (await this.objects.listRaw(ref)) as never, { maxBackoffMs: 2_000 });
    this.watch.informer.on('delete', (o) => {
      const d = this.deletions.get(o.metadata?.name ?? '');
      if (d && d.goneAt === undefined) d.goneAt = Date.now();
    });
  }

  collection() {
    return { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: this.namespace };
  }

  async prepare(extraNamespaces: string[]): Promise<void> {
    for (const name of [this.namespace, ...extraNamespaces]) {
      await retry(() => this.objects.apply({ group: '', version: 'v1', plural: 'namespaces', name }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, 'chaos'));
    }
    await this.watch!.start();
  }

  async createMany(count: number): Promise<void> {
    await Promise.all(Array.from({ length: count }, () => this.create()));
  }

  /** One operation about every 300 ms until `end`: scale (most), create, delete. */
  async runUntil(end: number): Promise<void> {
    const inFlight: Promise<void>[] = [];
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 150 + this.random() * 300));
      const roll = this.random();
      const names = [...this.expected.keys()];
      const pick = names[Math.floor(this.random() * names.length)];
      if (roll < 0.5 && pick) inFlight.push(this.scale(pick, 1 + Math.floor(this.random() * 3)));
      else if (roll < 0.7 && pick) inFlight.push(this.delete(pick));
      else inFlight.push(this.create());
    }
    await Promise.all(inFlight);
  }

  async stop(): Promise<void> {
    await this.watch?.stop();
  }

  private async create(): Promise<void> {
    const name = `chaos-${this.next++}`;
    this.expected.set(name, 1);
    this.counts.created!++;
    const applying = retry(() => this.objects.apply({ ...this.collection(), name }, { ...this.template, metadata: { name, namespace: this.namespace } }, 'chaos'));
    this.creating.set(name, applying);
    try {
      await applying;
    } finally {
      this.creating.delete(name);
    }
  }

  /**
   * A user scales or deletes what they created: an operation on a deployment whose create is still being
   * retried waits for it, or a delete could reach the API server first (NotFound, done) and the create
   * land after it, leaving a deployment nobody deletes.
   */
  private async created(name: string): Promise<void> {
    await this.creating.get(name)?.catch(() => undefined);
  }

  private async scale(name: string, replicas: number): Promise<void> {
    this.expected.set(name, replicas);
    this.counts.scaled!++;
    await this.created(name);
    // A deployment deleted meanwhile is not found: nothing left to scale.
    await retry(() => this.objects.mergePatch({ ...this.collection(), name }, { spec: { scaling: { replicas } } }).catch(ignoreNotFound));
  }

  private async delete(name: string): Promise<void> {
    this.expected.delete(name);
    this.counts.deleted!++;
    await this.created(name);
    // The deadline counts from the delete request, as a user's would.
    this.deletions.set(name, { requestedAt: Date.now() });
    await retry(() => this.objects.delete({ ...this.collection(), name }));
  }
}

function ignoreNotFound(err: unknown): void {
  if (classifyKubeError(err).type !== 'NotFound') throw err;
}

/** Until the API server answers (it may be restarting): every operation here is idempotent. */
async function retry(op: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await op();
      return;
    } catch (err) {
      if (attempt >= 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

// The real KEDA operator (v2.21.0, built by `npm run tools`) processes the ScaledObjects our AsyncActors
// render, against the stack's real RabbitMQ, with KEDA's own CRDs installed. KEDA itself moves a target
// between zero and one replica (it polls the queue on each pollingInterval); above one its HPA takes
// over, which would need KEDA's metrics API server and the HPA controller (neither runs here), so these
// tests go 0 → 1 → 0: messages queued → one replica (and KEDA's HPA exists), queue emptied → zero after
// the cooldown. In all three ways an actor runs: standalone (its own Deployment), bound to a Deployment,
// and bound to a ModelDeployment, which KEDA scales through the ModelDeployment's /scale subresource.
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsyncActor } from '../../api/asya/types.ts';
import { startKedaOperator, type RunningOperator } from '../../devstack/operators.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { actorExample, applyAs, bindingActor, createActor, DEPLOYMENTS, getDeployment, getScaledObject, hasCondition, plainDeployment, waitForActor } from '../support/asya.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { createDeployment, example, getDeployment as getModelDeployment, waitForDeployment } from '../support/deployments.ts';
import { eventually, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

const HPAS = { group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers' };
const SECRETS = { group: '', version: 'v1', plural: 'secrets' };
const TRIGGER_AUTHS = { group: 'keda.sh', version: 'v1alpha1', plural: 'triggerauthentications' };

/** Short enough for a test: KEDA checks the queue every second and scales to zero 5 s after it empties. */
const SCALING = { enabled: true, minReplicas: 0, maxReplicas: 2, pollingInterval: 1, cooldownPeriod: 5, queueLength: 1 };
/** KEDA's first scale-down waits its initial cooldown too; then one poll, the cooldown and a margin. */
const SCALE_WITHIN_MS = 60_000;

async function publish(queue: string, count: number): Promise<void> {
  const connection = await connect(stackInfo().amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    for (let i = 0; i < count; i++) channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n: i })), { persistent: true });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

async function purge(queue: string): Promise<void> {
  const connection = await connect(stackInfo().amqpUrl);
  try {
    await (await connection.createChannel()).purgeQueue(queue);
  } finally {
    await connection.close();
  }
}

describe('the real KEDA operator', () => {
  let kube: TestKube;
  let ns: string;
  let operator: RunningOperator | undefined;
  let ctl: TestController | undefined;
  const objects = () => new CustomObjects(kube.kc);

  beforeAll(async () => {
    kube = await testKube('e2e-keda-op');
    ns = kube.namespace;
    // The namespace's broker connection for KEDA, as the example says whoever runs RabbitMQ creates it:
    // a Secret with the AMQP URL and the TriggerAuthentication `asya-rabbitmq` that hands it to KEDA.
    await objects().apply({ ...SECRETS, namespace: ns, name: 'rabbitmq-host' }, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'rabbitmq-host', namespace: ns }, stringData: { host: stackInfo().amqpUrl } }, 'e2e');
    await objects().apply(
      { ...TRIGGER_AUTHS, namespace: ns, name: 'asya-rabbitmq' },
      { apiVersion: 'keda.sh/v1alpha1', kind: 'TriggerAuthentication', metadata: { name: 'asya-rabbitmq', namespace: ns }, spec: { secretTargetRef: [{ parameter: 'host', name: 'rabbitmq-host', key: 'host' }] } },
      'e2e',
    );
    const t0 = Date.now();
    operator = await startKedaOperator({ kubeconfigPath: stackInfo().kubeconfigPath, stateDir: stackInfo().stateDir, namespaces: [ns], clusterObjectNamespace: ns });
    process.stdout.write(`[keda-operator] ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (log: ${operator.logFile})\n`);
    ctl = await startTestController({ namespaces: [ns] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await operator?.stop();
    await kube?.cleanup();
  });

  const replicasOf = async (name: string) => (((await getDeployment(ns, name))?.spec as { replicas?: number } | undefined)?.replicas);

  /** KEDA's HPA for the ScaledObject, scaling the same target. */
  const kedaHpa = (scaledObject: string, target: { apiVersion: string; kind: string; name: string }) =>
    eventually(`KEDA's HPA for ${scaledObject}`, async () => {
      const hpa = await objects().get({ ...HPAS, namespace: ns, name: `keda-hpa-${scaledObject}` });
      const ref = (hpa?.spec as { scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string } } | undefined)?.scaleTargetRef;
      return hpa && ref?.apiVersion === target.apiVersion && ref.kind === target.kind && ref.name === target.name ? hpa : undefined;
    });

  /** KEDA's own view on the ScaledObject: Ready (it could reach the queue) and whether the trigger is Active. */
  const scaledObjectCondition = async (name: string, type: string) =>
    ((await getScaledObject(ns, name))?.status as { conditions?: { type: string; status: string; message?: string }[] } | undefined)?.conditions?.find((c) => c.type === type);

  /** 0 → 1 on queued messages, then back to 0 once the queue is empty for the cooldown. */
  async function scalesOnQueue(actor: string, replicas: () => Promise<number | undefined>): Promise<void> {
    await eventually('KEDA to scale the idle target to 0', async () => (await replicas()) === 0, SCALE_WITHIN_MS);
    // Ready: KEDA reached the queue through the TriggerAuthentication; not Active: it found it empty.
    await eventually('KEDA to report the empty queue', async () => (await scaledObjectCondition(actor, 'Ready'))?.status === 'True' && (await scaledObjectCondition(actor, 'Active'))?.status === 'False', SCALE_WITHIN_MS);
    await publish(`asya-${actor}`, 3);
    await eventually('KEDA to scale 0 → 1 on 3 queued messages', async () => (await replicas()) === 1, SCALE_WITHIN_MS);
    expect((await scaledObjectCondition(actor, 'Active'))?.status).toBe('True');
    await purge(`asya-${actor}`);
    await eventually('KEDA to scale 1 → 0 after the cooldown', async () => (await replicas()) === 0, SCALE_WITHIN_MS);
    expect((await scaledObjectCondition(actor, 'Active'))?.status).toBe('False');
  }

  it('standalone: scales the actor\'s own Deployment 0 → 1 → 0 on queue depth', async () => {
    const name = uniqueName('standalone');
    const actor = actorExample('async-actor-standalone.yaml', ns, name);
    actor.spec.scaling = SCALING;
    await createActor(actor);
    await waitForActor(ns, name, 'ScaledObject created', hasCondition('ScalingReady', 'True'));
    await kedaHpa(name, { apiVersion: 'apps/v1', kind: 'Deployment', name });
    await scalesOnQueue(name, () => replicasOf(name));
  });

  it('binding to a Deployment: scales the owner\'s Deployment 0 → 1 → 0', async () => {
    const name = uniqueName('bound');
    const target = uniqueName('server');
    await applyAs(DEPLOYMENTS, plainDeployment(ns, target), 'the-owner');
    const actor: AsyncActor = bindingActor(ns, name, { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, 'http://server:80');
    actor.spec.scaling = SCALING;
    await createActor(actor);
    await waitForActor(ns, name, 'ScaledObject created', hasCondition('ScalingReady', 'True'));
    await kedaHpa(name, { apiVersion: 'apps/v1', kind: 'Deployment', name: target });
    await scalesOnQueue(name, () => replicasOf(target));
  });

  it('binding to a ModelDeployment: scales it through its /scale subresource 0 → 1 → 0', async () => {
    const name = uniqueName('bound-md');
    const mdName = uniqueName('gemma');
    await createDeployment(example('cpu-gguf-kaito.yaml', ns, (m) => (m.metadata.name = mdName)));
    await waitForDeployment(ns, mdName, 'Running', (m) => m.status?.phase === 'Running');
    const actor: AsyncActor = bindingActor(ns, name, { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: mdName });
    actor.spec.scaling = SCALING;
    await createActor(actor);
    await waitForActor(ns, name, 'ScaledObject created', hasCondition('ScalingReady', 'True'));
    const hpa: AnyObject = await kedaHpa(name, { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: mdName });
    expect(hpa.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ScaledObject', name });
    await scalesOnQueue(name, async () => (await getModelDeployment(ns, mdName))?.spec.scaling?.replicas);
  });
});

// kubeairunway's processes started on a ServiceAccount's token instead of the admin's: the controller
// (any subset of core, watcher and providers), as `kubeairunway run` starts it in a pod. The broker
// (RabbitMQ) is the stack's; it is not Kubernetes, so no token is involved there.

import type { KubeConfig } from '@kubernetes/client-node';
import type { ProviderDefinition } from '../../providers/contract.ts';
import { startController, type Controller } from '../../worker/controller.ts';
import { TEST_SETTINGS, workflowBundle } from '../support/controller.ts';
import { stackInfo } from '../support/env.ts';

export interface RunningAs {
  controller: Controller;
  /** Every line the process logged: a Forbidden anywhere shows up here. */
  log: string[];
}

export async function startControllerAs(
  kc: KubeConfig,
  opts: { core: boolean; watcher: boolean; providers: readonly ProviderDefinition[]; taskQueuePrefix: string; namespaces?: readonly string[] },
): Promise<RunningAs> {
  const log: string[] = [];
  const controller = await startController({
    kc,
    temporalAddress: stackInfo().temporalAddress,
    temporalNamespace: stackInfo().temporalNamespace,
    core: opts.core,
    watcher: opts.watcher,
    providers: opts.providers,
    settings: { ...TEST_SETTINGS, taskQueuePrefix: opts.taskQueuePrefix },
    // All namespaces unless told (`kubeairunway run --namespaces`), as in a cluster: the watcher's list
    // and watch are then cluster-wide.
    namespaces: opts.namespaces,
    // The stack's broker, as components/asya-rabbitmq gives it to the installed controller: AsyncActors'
    // queues are declared and deleted, so the broker's part of their lifecycle runs too.
    flags: { amqpUrl: stackInfo().amqpUrl },
    workflowBundle: await workflowBundle(),
    heartbeatMs: 2_000,
    log: (line) => log.push(line),
  });
  return { controller, log };
}

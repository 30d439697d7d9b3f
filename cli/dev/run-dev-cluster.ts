import { KubeConfig } from '@kubernetes/client-node';
import { clusterUnavailable, ensureClusterTools, startCluster, type Cluster } from '../../devstack/cluster/cluster.ts';
import { NODE_NAMESPACE, SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { installKybernateNode, installProduct, loadProductImage } from '../../devstack/cluster/install-product.ts';
import { loadAsyaImages } from '../../devstack/cluster/asya-images.ts';
import { loadFlameImages } from '../../devstack/cluster/flame-images.ts';
import { ensureLlamaServerImage } from '../../devstack/cluster/llama-server.ts';
import { BUSYBOX_IMAGE, criImageName } from '../../devstack/kubelet-node.ts';
import { removePidFile } from '../../devstack/leftovers.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { CliError } from '../../present/errors.ts';
import { repoRoot } from '../repo-root.ts';
import type { DevOptions } from './run-dev.ts';
import { devStackOptions, exitSoonIfStillRunning, onInterrupt } from './run-dev.ts';
import { repeatMessage } from './interrupt-counter.ts';
import { swallowShutdownNoise } from './shutdown-noise.ts';

// `npm run dev -- --cluster`: a real one-node cluster (devstack/cluster/) with the product installed in it
// as a user installs it (the image built from this checkout, deploy/install.yaml), so no controller runs
// on the host. The KAITO, Dynamo and KubeRay operators are still simulated (no registry serves the first
// two; KubeRay's would start Ray pods that need images no registry here serves). The built-in `deployment`
// provider needs no operator: its llama.cpp server runs for real, from an image built here.

export async function runDevCluster(opts: DevOptions): Promise<void> {
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  // Plain setup does not build the cluster's tools (npm run dev stays quick without --cluster): built once here.
  await ensureClusterTools(log);
  const unavailable = clusterUnavailable();
  if (unavailable) throw new CliError(`--cluster cannot run here: ${unavailable}.`);
  const interrupted = onInterrupt((remaining) => log(repeatMessage(remaining)));
  const aborting = new AbortController();
  let cluster: Cluster | undefined;
  const simulators: Simulator[] = [];
  const stopAll = async () => {
    await Promise.all(simulators.map((s) => s.stop()));
    await cluster?.stop();
    removePidFile(opts.stateDir);
  };
  const t0 = Date.now();
  const starting = (async () => {
    cluster = await startCluster(devStackOptions(opts, aborting.signal, log));
    await loadProductImage(cluster, repoRoot(), log);
    log('installing kubeairunway: kubectl apply -f deploy/install.yaml ...');
    await installProduct(cluster, repoRoot());
    // The tour's model that answers (examples/llama-cpu-deployment.yaml) runs this image; no registry serves it.
    await cluster.node.importImages([await ensureLlamaServerImage(cluster.engine, log)]);
    // One node for everything: the Kybernate node worker beside the node's containerd, and Flame's and
    // Asya's pods (images under the names pods ask for, stand-ins where no registry here serves one).
    log('adding the Kybernate node worker: kubectl apply -k (components/kybernate-node) ...');
    await installKybernateNode(cluster, repoRoot());
    await loadFlameImages(cluster.engine, cluster.node, log);
    await loadAsyaImages(cluster.engine, cluster.node, log);
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    for (const script of UPSTREAM_SCRIPTS) simulators.push(await startSimulator(kc, script, { readyAfterMs: 5_000, log }));
  })();
  const first = await Promise.race([starting.then(() => 'started' as const), interrupted.then(() => 'interrupted' as const)]).catch(async (err: Error) => {
    await stopAll();
    throw err;
  });
  if (first === 'interrupted') {
    log('interrupted while starting; stopping what started ...');
    swallowShutdownNoise(log);
    aborting.abort();
    await starting.catch(() => undefined);
    await stopAll();
    log('stopped');
    return;
  }
  printWelcome(cluster!, (Date.now() - t0) / 1000);
  await interrupted;
  log('stopping ...');
  await stopAll();
  log('stopped');
  exitSoonIfStillRunning(log);
}

function printWelcome(cluster: Cluster, seconds: number): void {
  const k = `kubectl --kubeconfig ${cluster.kubeconfigPath}`;
  process.stdout.write(
    [
      '',
      `A one-node cluster is running (up in ${seconds.toFixed(0)}s), with kubeairunway installed in it from deploy/install.yaml.`,
      `  kubeconfig:   ${cluster.kubeconfigPath}`,
      `  controller:   ${k} -n ${SYSTEM_NAMESPACE} get pods     (the image built from this checkout; no controller runs on this host)`,
      `  logs:         ${k} -n ${SYSTEM_NAMESPACE} logs deploy/kubeairunway-controller`,
      `  Temporal UI:  ${cluster.temporalUiUrl}   (the stack's Temporal; pods reach it as temporal-frontend.temporal.svc:7233)`,
      `  Temporal:     ${cluster.temporalAddress} (namespace ${cluster.temporalNamespace})`,
      `  node:         ${cluster.node.nodeName}: kubelet, containerd, runc and CRIU 4; pods on 10.244.0.0/24, Services on 10.96.0.0/16, DNS by CoreDNS`,
      `  servers:      ${cluster.stateDir}/*.log`,
      '  operators:    simulated KAITO, Dynamo and KubeRay (they write the upstream status)',
      `  deploy:       ${k} apply -f examples/cpu-gguf-kaito.yaml && ${k} get md -w`,
      `  a model:      ${k} apply -f examples/tiny-model-cache.yaml && ${k} wait --for=condition=complete job/tiny-model`,
      `                ${k} apply -f examples/llama-cpu-deployment.yaml && ${k} get md tiny-llama -w   (llama.cpp on CPU, no operator)`,
      `                curl ${cluster.gateway.url}/v1/completions -H 'X-Gateway-Model-Name: tiny-llama' -H 'Content-Type: application/json' -d '{"prompt": "hi", "max_tokens": 8}'`,
      `  gateway:      ${cluster.gateway.url}   (Traefik, Gateway gateways/inference; each ModelDeployment's status.gateway.endpoint; docs/gateway.md)`,
      `  checkpoint:   ${k} run counter --image=${criImageName(BUSYBOX_IMAGE)} --image-pull-policy=Never --command -- sh -c 'i=0; while true; do i=$((i+1)); echo $i; sleep 1; done'`,
      `                printf 'apiVersion: kybernate.io/v1alpha1\\nkind: KybernateCheckpoint\\nmetadata: {name: counter-now}\\nspec: {podName: counter}\\n' | ${k} apply -f - && ${k} get kcp -w`,
      `                (CRIU 4 in the node's containerd, by the node worker's pod: ${k} -n ${NODE_NAMESPACE} get pods)`,
      `  flame:        ${k} apply -f examples/flame-cluster.yaml && ${k} get fc -w   (stand-in images answering Flame's probes on the real node)`,
      `  history:      node bin/kubeairunway.js history default/gemma-cpu --kubeconfig ${cluster.kubeconfigPath}`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

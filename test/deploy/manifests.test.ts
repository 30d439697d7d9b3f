// The install manifests, checked without a cluster: the committed install.yaml is current, the CRDs are
// the generated ones, every role matches what the code declares (provider kinds, names), and every pod
// meets the restricted Pod Security Standard, except the opt-in node worker's, checked for what it is.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinProviders } from '../../providers/index.ts';
import { splitApiVersion } from '../../kube/custom-objects.ts';
import { flameClusterKind } from '../../watcher/kinds/flame-cluster.ts';
import { asyncActorKind } from '../../watcher/kinds/async-actor.ts';
import { kybernateCheckpointKind } from '../../watcher/kinds/kybernate-checkpoint.ts';
import { KYBERNATE_GROUP, RESTORE_PLURAL, WORKLOAD_PLURAL } from '../../api/kybernate/constants.ts';
import { KEDA_GROUP, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import { DEFAULT_CONFIGURATION_NAMES } from '../../webhook/registration.ts';
import { DEFAULT_SECRET_NAME } from '../../webhook/index.ts';
import { DEPLOY_DIR, INSTALL_FILE, kubectlAvailable, renderInstall } from '../../deploy/render.ts';
import { componentNames, find, NODE_COMPONENT, NODE_NAMESPACE, overlay, parseManifests, rendered, type Manifest } from './manifests.ts';
import { allows, resourcesOf, rulesOf } from './rbac-rules.ts';
import { gatewayKinds } from '../../activities/provider/gateway-lookup.ts';

const VERSION = (JSON.parse(readFileSync(join(DEPLOY_DIR, '..', 'package.json'), 'utf8')) as { version: string }).version;
const IMAGE = `ghcr.io/kubeairunway/kubeairunway:v${VERSION}`;
const install = parseManifests(readFileSync(INSTALL_FILE, 'utf8'));
const hasKubectl = kubectlAvailable();

interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  securityContext?: Record<string, unknown>;
}
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  hostPID?: boolean;
  hostNetwork?: boolean;
  hostIPC?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  containers: Container[];
  volumes?: { name: string; hostPath?: { path: string; type?: string } }[];
}
const podOf = (d: Manifest) => (d.spec as { template: { spec: PodSpec } }).template.spec;
/** Everything that runs pods from a template. */
const workloads = (ms: readonly Manifest[]) => ms.filter((m) => ['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet', 'Job'].includes(m.kind));

/**
 * Components that are opt-in and privileged by design, kept out of deploy/ and out of its restricted
 * namespace; each has its own test below instead of the restricted-pod check. Nothing else may be added
 * here without saying so in deploy/README.md.
 */
const OPT_IN_PRIVILEGED = [NODE_COMPONENT];

/** The restricted Pod Security Standard, as the install's pods meet it. */
function expectRestricted(ms: readonly Manifest[], where: string) {
  for (const d of workloads(ms)) {
    const pod = podOf(d);
    const name = `${where}: ${d.kind} ${d.metadata.name}`;
    expect(pod.securityContext, name).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.securityContext?.runAsUser, name).toBeGreaterThan(0);
    expect([pod.hostPID, pod.hostNetwork, pod.hostIPC].filter(Boolean), name).toEqual([]);
    expect((pod.volumes ?? []).filter((v) => v.hostPath), name).toEqual([]);
    for (const c of pod.containers) {
      expect(c.securityContext, `${name}/${c.name}`).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(c.securityContext?.privileged, `${name}/${c.name}`).not.toBe(true);
    }
    expect(d.metadata.namespace, name).toBe('kubeairunway-system');
    expect(() => find(ms, 'ServiceAccount', pod.serviceAccountName ?? 'default'), name).not.toThrow();
  }
}

describe('deploy/install.yaml', () => {
  it.skipIf(!hasKubectl)('is what `npm run manifests` renders now (run it after changing deploy/)', () => {
    expect(readFileSync(INSTALL_FILE, 'utf8')).toBe(renderInstall());
  });

  it('lists every generated CRD file and carries each one unchanged', () => {
    const kustomization = parse(readFileSync(join(DEPLOY_DIR, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    const files = readdirSync(join(DEPLOY_DIR, 'crds')).filter((f) => f.endsWith('.yaml'));
    expect(kustomization.resources.filter((r) => r.startsWith('crds/')).sort()).toEqual(files.map((f) => `crds/${f}`).sort());
    for (const file of files) {
      const generated = parse(readFileSync(join(DEPLOY_DIR, 'crds', file), 'utf8')) as Manifest;
      const shipped = find(install, 'CustomResourceDefinition', generated.metadata.name);
      expect(shipped.spec, file).toEqual(generated.spec);
    }
  });

  it(`runs one image, ${IMAGE}, the version in package.json`, () => {
    const all = hasKubectl ? [...install, ...builtinProviders.flatMap((p) => rendered(`providers/${p.name}`)), ...overlay(['core'], [NODE_COMPONENT])] : install;
    const images = new Set(workloads(all).flatMap((d) => podOf(d).containers.map((c) => c.image)));
    expect([...images]).toEqual([IMAGE]);
  });

  it('every pod meets the restricted Pod Security Standard and runs as a ServiceAccount of the install', () => {
    expect(find(install, 'Namespace', 'kubeairunway-system').metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect(workloads(install).map((d) => d.kind).sort()).toEqual(['Deployment', 'Deployment']);
    expectRestricted(install, 'install.yaml');
    // The node worker is not part of the whole install: no DaemonSet, no second namespace.
    expect(install.filter((m) => m.kind === 'Namespace').map((m) => m.metadata.name)).toEqual(['kubeairunway-system']);
  });

  it.skipIf(!hasKubectl)('so does every component but the opt-in privileged ones, with the core', () => {
    const components = componentNames().map((c) => `components/${c}`);
    expect(components).toEqual(expect.arrayContaining(OPT_IN_PRIVILEGED));
    for (const component of components.filter((c) => !OPT_IN_PRIVILEGED.includes(c))) expectRestricted(overlay(['core'], [component]), component);
    for (const name of builtinProviders.map((p) => `providers/${p.name}`)) expectRestricted([...rendered(name), ...rendered('core')], name);
  });

  it('the controller runs core, watcher and the built-in providers, serves metrics on 9090 and the activator on 8480', () => {
    const pod = podOf(find(install, 'Deployment', 'kubeairunway-controller'));
    const args = pod.containers[0]!.args!;
    expect(args[0]).toBe('run');
    expect(args).toEqual(expect.arrayContaining(['--core', '--watcher', `--providers=${['kaito', 'dynamo', 'kuberay', 'deployment'].join(',')}`, '--metrics-port=9090']));
    expect(args).toEqual(expect.arrayContaining(['--temporal-address=$(TEMPORAL_ADDRESS)', '--temporal-namespace=$(TEMPORAL_NAMESPACE)']));
    expect(pod.containers[0]!.ports).toEqual([expect.objectContaining({ name: 'metrics', containerPort: 9090 }), expect.objectContaining({ name: 'activator', containerPort: 8480 })]);
    const metrics = find(install, 'Service', 'kubeairunway-controller-metrics').spec as { ports: { port: number; targetPort: string }[] };
    expect(metrics.ports).toEqual([expect.objectContaining({ port: 9090, targetPort: 'metrics' })]);
    // The KybernateWorkload activator, behind its own Service.
    expect(args).toContain('--activator-port=8480');
    const activator = find(install, 'Service', 'kubeairunway-activator').spec as { ports: { port: number; targetPort: string }[]; selector: Record<string, string> };
    expect(activator.ports).toEqual([expect.objectContaining({ port: 80, targetPort: 'activator' })]);
    expect(activator.selector).toEqual({ 'app.kubernetes.io/name': 'kubeairunway-controller' });
    expect(find(install, 'ConfigMap', 'kubeairunway-temporal').data).toEqual({ TEMPORAL_ADDRESS: expect.stringMatching(/:7233$/), TEMPORAL_NAMESPACE: 'default' });
  });

  it('the webhook listens on 9443 behind the Service on 443 that its registration names', () => {
    const pod = podOf(find(install, 'Deployment', 'kubeairunway-webhook'));
    const c = pod.containers[0]!;
    // The webhook alone, registered behind the Service; POD_NAMESPACE also names the Secret's namespace.
    expect(c.args).toEqual(['run', '--webhook', '--no-metrics', '--webhook-port=9443', '--webhook-service=$(POD_NAMESPACE)/kubeairunway-webhook']);
    expect((c as unknown as { env: unknown[] }).env).toEqual([{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }]);
    expect(c.ports).toEqual([expect.objectContaining({ name: 'webhook', containerPort: 9443 })]);
    const service = find(install, 'Service', 'kubeairunway-webhook').spec as { ports: { port: number; targetPort: string }[]; selector: Record<string, string> };
    expect(service.ports).toEqual([expect.objectContaining({ port: 443, targetPort: 'webhook' })]);
    expect(service.selector).toEqual({ 'app.kubernetes.io/name': 'kubeairunway-webhook' });
  });
});

describe.skipIf(!hasKubectl)('components for a Temporal server that needs credentials', () => {
  type Env = { name: string; value?: string; valueFrom?: unknown };
  const envOf = (d: Manifest) => ((podOf(d).containers[0] as unknown as { env?: Env[] }).env ?? []).map((e) => e.name);

  it('mTLS and API key reach every process that talks to Temporal, and not the webhook', () => {
    const out = overlay([''], ['components/temporal-mtls', 'components/temporal-api-key']);
    const controller = find(out, 'Deployment', 'kubeairunway-controller');
    expect(envOf(controller).sort()).toEqual(['TEMPORAL_API_KEY', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY']);
    expect(podOf(controller).containers[0]).toMatchObject({ volumeMounts: expect.arrayContaining([expect.objectContaining({ name: 'temporal-tls', readOnly: true })]) });
    expect(envOf(find(out, 'Deployment', 'kubeairunway-webhook'))).toEqual(['POD_NAMESPACE']);
    const provider = overlay(['providers/kaito'], ['components/temporal-mtls']);
    expect(envOf(find(provider, 'Deployment', 'kaito-provider')).sort()).toEqual(['TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY']);
    // The node worker talks to Temporal too (listed first: components apply in order).
    const node = find(overlay([''], [NODE_COMPONENT, 'components/temporal-mtls', 'components/temporal-api-key']), 'DaemonSet', 'kubeairunway-node');
    expect(envOf(node).filter((e) => e.startsWith('TEMPORAL_')).sort()).toEqual(['TEMPORAL_API_KEY', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY']);
    expect(podOf(node).volumes).toEqual(expect.arrayContaining([{ name: 'temporal-tls', secret: { secretName: 'kubeairunway-temporal-tls' } }]));
  });

  it("the RabbitMQ URL for AsyncActors' queues reaches the controller only, from its Secret (`kubeairunway run` reads ASYA_AMQP_URL)", () => {
    const out = overlay([''], ['components/asya-rabbitmq']);
    const env = (podOf(find(out, 'Deployment', 'kubeairunway-controller')).containers[0] as unknown as { env?: Env[] }).env ?? [];
    expect(env).toEqual([{ name: 'ASYA_AMQP_URL', valueFrom: { secretKeyRef: { name: 'kubeairunway-asya-amqp', key: 'url' } } }]);
    expect(envOf(find(out, 'Deployment', 'kubeairunway-webhook'))).toEqual(['POD_NAMESPACE']);
    // A standalone provider runs no core worker, so it never talks to the broker.
    expect(envOf(find(overlay(['core', 'providers/kaito'], ['components/asya-rabbitmq']), 'Deployment', 'kaito-provider'))).toEqual([]);
  });
});

describe.skipIf(!hasKubectl)('the Kybernate node worker (components/kybernate-node): opt-in, privileged, and no Kubernetes right', () => {
  const withNode = hasKubectl ? overlay([''], [NODE_COMPONENT]) : [];
  const added = withNode.filter((m) => !install.some((i) => i.kind === m.kind && i.metadata.name === m.metadata.name && i.metadata.namespace === m.metadata.namespace));
  const daemonSet = () => find(withNode, 'DaemonSet', 'kubeairunway-node');
  type Env = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };

  it('adds its namespace (privileged admitted), a ServiceAccount, the Temporal settings and the DaemonSet, and changes nothing of the install', () => {
    expect(added.map((m) => `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`).sort()).toEqual(
      [`ConfigMap ${NODE_NAMESPACE}/kubeairunway-temporal`, `DaemonSet ${NODE_NAMESPACE}/kubeairunway-node`, `Namespace /${NODE_NAMESPACE}`, `ServiceAccount ${NODE_NAMESPACE}/kubeairunway-node`].sort(),
    );
    expect(withNode.filter((m) => !added.includes(m))).toEqual(install);
    expect(find(withNode, 'Namespace', NODE_NAMESPACE).metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
    // The same Temporal defaults as the controller's, in the node's namespace (a pod reads only its own).
    const temporal = (namespace: string) => withNode.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'kubeairunway-temporal' && m.metadata.namespace === namespace)?.data;
    expect(temporal(NODE_NAMESPACE)).toEqual(temporal('kubeairunway-system'));
    for (const m of added) expect(m.metadata.labels?.['app.kubernetes.io/part-of'], `${m.kind} ${m.metadata.name}`).toBe('kubeairunway');
  });

  it('runs `run --node` on every node, named by spec.nodeName, against the host containerd, privileged and in the host PID namespace', () => {
    const pod = podOf(daemonSet());
    const c = pod.containers[0]!;
    expect(pod.containers).toHaveLength(1);
    expect(c.args).toEqual([
      'run',
      '--temporal-address=$(TEMPORAL_ADDRESS)',
      '--temporal-namespace=$(TEMPORAL_NAMESPACE)',
      '--node',
      '--node-name=$(NODE_NAME)',
      '--containerd-socket=/run/containerd/containerd.sock',
      '--metrics-port=9090',
    ]);
    const env = (c as unknown as { env: Env[]; envFrom: unknown[] }).env;
    expect(env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    expect((c as unknown as { envFrom: unknown[] }).envFrom).toEqual([{ configMapRef: { name: 'kubeairunway-temporal' } }]);
    expect(pod.hostPID).toBe(true);
    expect(c.securityContext).toMatchObject({ privileged: true, runAsUser: 0, readOnlyRootFilesystem: true });
    // The host's containerd folder (the socket inside it) and the seed's CRIU plugin folder, both read-only.
    const mounts = (c as unknown as { volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[] }).volumeMounts;
    const hostPaths = Object.fromEntries((pod.volumes ?? []).filter((v) => v.hostPath).map((v) => [v.name, v.hostPath!.path]));
    expect(hostPaths).toEqual({ containerd: '/run/containerd', 'criu-plugins': '/usr/local/lib/criu' });
    for (const name of Object.keys(hostPaths)) expect(mounts.find((m) => m.name === name), name).toMatchObject({ mountPath: hostPaths[name], readOnly: true });
    expect(daemonSet().metadata.namespace).toBe(NODE_NAMESPACE);
  });

  it('holds no Kubernetes right: no token mounted, and no binding names its ServiceAccount', () => {
    const pod = podOf(daemonSet());
    expect(pod.serviceAccountName).toBe('kubeairunway-node');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect((find(withNode, 'ServiceAccount', 'kubeairunway-node') as unknown as { automountServiceAccountToken?: boolean }).automountServiceAccountToken).toBe(false);
    const bindings = withNode.filter((m) => m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding');
    const subjects = bindings.flatMap((b) => (b.subjects as { kind: string; name: string; namespace?: string }[]).map((s) => `${s.kind} ${s.namespace ?? ''}/${s.name}`));
    expect(subjects.filter((s) => s.includes(NODE_NAMESPACE) || s.includes('kubeairunway-node'))).toEqual([]);
    expect(added.filter((m) => ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].includes(m.kind))).toEqual([]);
  });
});

describe('install roles match the code', () => {
  const role = (kind: string, name: string) => rulesOf(find(install, kind, name));

  for (const provider of builtinProviders) {
    it(`the ${provider.name} provider's role covers its resource and every kind it owns, under its own names`, () => {
      const rules = role('ClusterRole', `kubeairunway-provider-${provider.name}`);
      const { group, plural } = provider.resource;
      for (const verb of ['get', 'list', 'watch', 'create', 'patch', 'delete']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(true);
      for (const kind of provider.ownedKinds) {
        // Applied with server-side apply, found by label and deleted at cleanup.
        for (const verb of ['create', 'patch', 'list', 'delete']) expect(allows(rules, verb, splitApiVersion(kind.apiVersion).group, kind.plural), `${verb} ${kind.plural}`).toBe(true);
      }
      // get: version detection; list and watch: the registration's watch of its CRD (worker/registration.ts).
      // A built-in kind (apps/v1 Deployment) has no CRD, and its role reads none.
      const crdVerbs = provider.resource.builtin ? [] : ['get', 'list', 'watch'];
      for (const verb of crdVerbs) expect(allows(rules, verb, 'apiextensions.k8s.io', 'customresourcedefinitions', `${plural}.${group}`), `${verb} its CRD`).toBe(true);
      // Kinds its status reads (pods): read-only.
      for (const kind of provider.statusReads ?? []) {
        for (const verb of ['get', 'list', 'watch']) expect(allows(rules, verb, splitApiVersion(kind.apiVersion).group, kind.plural), `${verb} ${kind.plural}`).toBe(true);
      }
      // Routing (spec.gateway): its route and pool applied, found, deleted and (routes) watched; Gateways read; the two CRDs looked up.
      for (const kind of gatewayKinds) {
        for (const verb of ['get', 'create', 'patch', 'list', 'delete']) expect(allows(rules, verb, splitApiVersion(kind.apiVersion).group, kind.plural), `${verb} ${kind.plural}`).toBe(true);
      }
      expect(allows(rules, 'watch', 'gateway.networking.k8s.io', 'httproutes')).toBe(true);
      for (const verb of ['get', 'list', 'watch']) expect(allows(rules, verb, 'gateway.networking.k8s.io', 'gateways'), `${verb} gateways`).toBe(true);
      expect(allows(rules, 'patch', 'gateway.networking.k8s.io', 'gateways')).toBe(false);
      for (const crd of ['httproutes.gateway.networking.k8s.io', 'inferencepools.inference.networking.k8s.io']) {
        for (const verb of ['get', 'list', 'watch']) expect(allows(rules, verb, 'apiextensions.k8s.io', 'customresourcedefinitions', crd), `${verb} ${crd}`).toBe(true);
      }
      expect(allows(rules, 'get', 'apiextensions.k8s.io', 'customresourcedefinitions', 'modeldeployments.kubeairunway.ai')).toBe(false);
      expect(allows(rules, 'create', 'kubeairunway.ai', 'inferenceproviderconfigs', provider.name)).toBe(true);
      expect(allows(rules, 'patch', 'kubeairunway.ai', 'inferenceproviderconfigs/status', provider.name)).toBe(true);
      expect(allows(rules, 'patch', 'kubeairunway.ai', 'inferenceproviderconfigs', 'another-provider')).toBe(false);
      // Nothing beyond its own kinds, the ModelDeployment, its registration, its CRD and events.
      const own = new Set([`${plural}.${group}`, 'gateways.gateway.networking.k8s.io', ...[...provider.ownedKinds, ...(provider.statusReads ?? []), ...gatewayKinds].map((k) => (splitApiVersion(k.apiVersion).group ? `${k.plural}.${splitApiVersion(k.apiVersion).group}` : k.plural))]);
      const shared = ['modeldeployments.kubeairunway.ai', 'modeldeployments/status.kubeairunway.ai', 'modeldeployments/finalizers.kubeairunway.ai', 'inferenceproviderconfigs.kubeairunway.ai', 'inferenceproviderconfigs/status.kubeairunway.ai', 'customresourcedefinitions.apiextensions.k8s.io', 'events'];
      expect([...resourcesOf(rules)].filter((r) => !own.has(r) && !shared.includes(r))).toEqual([]);
    });
  }

  it('the whole install binds the built-in provider roles to the controller, which otherwise holds the core, Flame, Asya and Kybernate roles only', () => {
    const bound = install
      .filter((m) => m.kind === 'ClusterRoleBinding')
      .filter((b) => (b.subjects as { kind: string; name: string }[]).some((s) => s.kind === 'ServiceAccount' && s.name === 'kubeairunway-controller'))
      .map((b) => (b.roleRef as { name: string }).name)
      .sort();
    expect(bound).toEqual(['kubeairunway-controller', 'kubeairunway-flame', 'kubeairunway-asya', 'kubeairunway-kybernate', ...builtinProviders.map((p) => `kubeairunway-provider-${p.name}`)].sort());
    expect(install.filter((m) => m.kind === 'RoleBinding').map((b) => (b.roleRef as { name: string }).name)).toEqual(['kubeairunway-webhook']);
  });

  for (const [role, kinds] of [['flame', 'FlameClusters'], ['asya', 'AsyncActors'], ['kybernate', 'KybernateCheckpoints']]) {
    it(`the core install (deploy/core) binds the ${role} role to the controller too: the same process reconciles ${kinds}`, () => {
      const core = install.filter((m) => m.kind === 'ClusterRoleBinding' && m.metadata.name === `kubeairunway-controller-${role}`);
      expect(core.map((b) => [b.roleRef, b.subjects])).toEqual([
        [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `kubeairunway-${role}` }, [{ kind: 'ServiceAccount', name: 'kubeairunway-controller', namespace: 'kubeairunway-system' }]],
      ]);
      if (hasKubectl) expect(() => find(rendered('core'), 'ClusterRoleBinding', `kubeairunway-controller-${role}`)).not.toThrow();
    });
  }

  it("the Flame role covers the FlameCluster watch and its children's, and nothing else", () => {
    const rules = role('ClusterRole', 'kubeairunway-flame');
    const { group, plural } = flameClusterKind.collection;
    // Live reads and the watcher's informer; status by server-side apply; blockOwnerDeletion on the children.
    for (const verb of ['get', 'list', 'watch']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(true);
    expect(allows(rules, 'patch', group, `${plural}/status`)).toBe(true);
    expect(allows(rules, 'update', group, `${plural}/finalizers`)).toBe(true);
    for (const verb of ['create', 'update', 'patch', 'delete']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(false);
    for (const child of flameClusterKind.children ?? []) {
      // The watcher's informer (and the activities' cache); server-side apply, a create the first time.
      for (const verb of ['list', 'watch', 'create', 'patch']) expect(allows(rules, verb, child.group, child.plural), `${verb} ${child.plural}`).toBe(true);
      expect(allows(rules, 'update', child.group, child.plural), `update ${child.plural}`).toBe(false);
      expect(allows(rules, 'deletecollection', child.group, child.plural), `deletecollection ${child.plural}`).toBe(false);
    }
    // Only pods are deleted (scale-down, recreation); the garbage collector removes the rest. Only the ConfigMap is read by name.
    expect(['pods', 'services', 'configmaps'].filter((r) => allows(rules, 'delete', '', r))).toEqual(['pods']);
    expect(['pods', 'services', 'configmaps'].filter((r) => allows(rules, 'get', '', r))).toEqual(['configmaps']);
    const own = new Set([`${plural}.${group}`, `${plural}/status.${group}`, `${plural}/finalizers.${group}`, ...(flameClusterKind.children ?? []).map((c) => (c.group ? `${c.plural}.${c.group}` : c.plural))]);
    expect([...resourcesOf(rules)].filter((r) => !own.has(r))).toEqual([]);
  });

  it("the Asya role covers the AsyncActor watch, its workloads, ScaledObject and ConfigMap, the kinds a binding follows, and nothing else", () => {
    const rules = role('ClusterRole', 'kubeairunway-asya');
    const { group, plural } = asyncActorKind.collection;
    // Live reads and the watcher's informer; the finalizer (JSON patch); status by server-side apply;
    // blockOwnerDeletion on the standalone workload and the ScaledObject.
    for (const verb of ['get', 'list', 'watch', 'patch']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(true);
    expect(allows(rules, 'patch', group, `${plural}/status`)).toBe(true);
    expect(allows(rules, 'update', group, `${plural}/finalizers`)).toBe(true);
    for (const verb of ['create', 'update', 'delete']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(false);
    const children = asyncActorKind.children ?? [];
    expect(children.map((c) => `${c.plural}.${c.group}`).sort()).toEqual(['deployments.apps', 'statefulsets.apps']);
    for (const child of children) {
      // The watcher's informer; reads of a binding's target; the owned workload found by list; server-side
      // apply of the standalone workload and of the injection (a create the first time).
      for (const verb of ['get', 'list', 'watch', 'create', 'patch']) expect(allows(rules, verb, child.group, child.plural), `${verb} ${child.plural}`).toBe(true);
      // Never replaced whole, never deleted: the standalone one goes by garbage collection, a foreign one is only un-injected.
      for (const verb of ['update', 'delete', 'deletecollection']) expect(allows(rules, verb, child.group, child.plural), `${verb} ${child.plural}`).toBe(false);
      for (const sub of ['scale', 'status']) expect(allows(rules, 'patch', child.group, `${child.plural}/${sub}`), `patch ${child.plural}/${sub}`).toBe(false);
    }
    // The shared asya-runtime ConfigMap and the ScaledObject: applied and removed (the ConfigMap with the
    // namespace's last actor, read by name first: never listed).
    expect(['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'].filter((verb) => allows(rules, verb, '', 'configmaps'))).toEqual(['get', 'create', 'patch', 'delete']);
    expect(['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'].filter((verb) => allows(rules, verb, KEDA_GROUP, SCALED_OBJECT_PLURAL))).toEqual(['create', 'patch', 'delete']);
    // A binding follows a Workspace, or a ModelDeployment to its provider resource: read only. The
    // ModelDeployment itself and the CRD's version come through the core role.
    // (The deployment provider's resource is a Deployment: one of the workloads above.)
    for (const { resource } of builtinProviders.filter((p) => !p.resource.builtin)) {
      expect(['get', 'list', 'watch', 'create', 'patch', 'delete'].filter((verb) => allows(rules, verb, resource.group, resource.plural)), resource.plural).toEqual(['get']);
    }
    expect(allows(rules, 'get', 'apiextensions.k8s.io', 'customresourcedefinitions', 'workspaces.kaito.sh')).toBe(false);
    expect(['pods', 'secrets'].filter((r) => ['get', 'list', 'create', 'patch'].some((verb) => allows(rules, verb, '', r)))).toEqual([]);
    const own = new Set([
      `${plural}.${group}`,
      `${plural}/status.${group}`,
      `${plural}/finalizers.${group}`,
      ...children.map((c) => `${c.plural}.${c.group}`),
      'configmaps',
      `${SCALED_OBJECT_PLURAL}.${KEDA_GROUP}`,
      ...builtinProviders.map((p) => `${p.resource.plural}.${p.resource.group}`),
    ]);
    expect([...resourcesOf(rules)].filter((r) => !own.has(r))).toEqual([]);
  });

  it('the Kybernate role covers the KybernateCheckpoint, KybernateRestore and KybernateWorkload watches, the pods they read, create and (workloads) delete, and the suspend checkpoints', () => {
    const rules = role('ClusterRole', 'kubeairunway-kybernate');
    const { group, plural } = kybernateCheckpointKind.collection;
    // Live reads and the watcher's informer; the artifacts finalizer (JSON patch); status by server-side
    // apply; a workload's suspend creates its checkpoint and deletes its older ones.
    for (const verb of ['get', 'list', 'watch', 'patch', 'create', 'delete']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(true);
    expect(allows(rules, 'patch', group, `${plural}/status`)).toBe(true);
    for (const verb of ['update', 'deletecollection']) expect(allows(rules, verb, group, plural), `${verb} ${plural}`).toBe(false);
    expect(allows(rules, 'update', group, `${plural}/status`)).toBe(false);
    // A checkpoint owns nothing in Kubernetes (its image is in the node's containerd): no children, no finalizers subresource.
    expect(kybernateCheckpointKind.children ?? []).toEqual([]);
    expect(allows(rules, 'update', group, `${plural}/finalizers`)).toBe(false);
    // Restores and workloads: read and watched, status by server-side apply, and the owner of the objects they create.
    for (const kind of [RESTORE_PLURAL, WORKLOAD_PLURAL]) {
      for (const verb of ['get', 'list', 'watch']) expect(allows(rules, verb, KYBERNATE_GROUP, kind), `${verb} ${kind}`).toBe(true);
      for (const verb of ['create', 'update', 'patch', 'delete']) expect(allows(rules, verb, KYBERNATE_GROUP, kind), `${verb} ${kind}`).toBe(false);
      expect(allows(rules, 'patch', KYBERNATE_GROUP, `${kind}/status`)).toBe(true);
      expect(allows(rules, 'update', KYBERNATE_GROUP, `${kind}/finalizers`)).toBe(true);
    }
    // Pods: the checkpointed pod read by name, restore and workload pods watched and created by
    // server-side apply, a suspended workload's pod deleted; never updated.
    expect(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'].filter((verb) => allows(rules, verb, '', 'pods'))).toEqual(['get', 'list', 'watch', 'create', 'patch', 'delete']);
    for (const sub of ['exec', 'attach', 'eviction', 'status', 'log']) expect(allows(rules, 'get', '', `pods/${sub}`) || allows(rules, 'create', '', `pods/${sub}`), `pods/${sub}`).toBe(false);
    expect([...resourcesOf(rules)].sort()).toEqual(
      [
        `${plural}.${group}`,
        `${plural}/status.${group}`,
        `${RESTORE_PLURAL}.${group}`,
        `${RESTORE_PLURAL}/status.${group}`,
        `${RESTORE_PLURAL}/finalizers.${group}`,
        `${WORKLOAD_PLURAL}.${group}`,
        `${WORKLOAD_PLURAL}/status.${group}`,
        `${WORKLOAD_PLURAL}/finalizers.${group}`,
        'pods',
      ].sort(),
    );
  });

  for (const name of ['kubeairunway-flame', 'kubeairunway-asya', 'kubeairunway-kybernate']) {
    it(`every rule of ${name} is namespaced and names no object, so it works as well in RoleBindings (deploy/README.md)`, () => {
      const rules = role('ClusterRole', name);
      // Cluster-scoped resources a RoleBinding could not grant: none.
      expect([...resourcesOf(rules)].filter((r) => ['customresourcedefinitions.apiextensions.k8s.io', 'namespaces', 'nodes'].includes(r))).toEqual([]);
      expect(rules.every((r) => !r.resourceNames?.length && !r.nonResourceURLs?.length)).toBe(true);
    });
  }

  it("users: editors and viewers of the three Kybernate kinds through the built-in admin, edit and view roles; the statuses stay the controller's", () => {
    const editor = find(install, 'ClusterRole', 'kubeairunway-kybernate-editor');
    const viewer = find(install, 'ClusterRole', 'kubeairunway-kybernate-viewer');
    expect(editor.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(viewer.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    for (const plural of [kybernateCheckpointKind.collection.plural, RESTORE_PLURAL, WORKLOAD_PLURAL]) {
      for (const verb of ['create', 'update', 'patch', 'delete']) expect(allows(rulesOf(editor), verb, KYBERNATE_GROUP, plural), `${verb} ${plural}`).toBe(true);
      expect(allows(rulesOf(editor), 'get', KYBERNATE_GROUP, `${plural}/status`)).toBe(true);
      expect(allows(rulesOf(editor), 'patch', KYBERNATE_GROUP, `${plural}/status`)).toBe(false);
      expect(allows(rulesOf(viewer), 'list', KYBERNATE_GROUP, plural)).toBe(true);
      expect(allows(rulesOf(viewer), 'get', KYBERNATE_GROUP, `${plural}/status`)).toBe(true);
      expect(allows(rulesOf(viewer), 'patch', KYBERNATE_GROUP, plural)).toBe(false);
    }
    for (const r of [editor, viewer]) expect([...resourcesOf(rulesOf(r))].every((x) => x.endsWith(`.${KYBERNATE_GROUP}`)), r.metadata.name).toBe(true);
  });

  it('users: AsyncActor editors and viewers through the built-in admin, edit and view roles; the status stays the controller\'s', () => {
    const { group, plural } = asyncActorKind.collection;
    const editor = find(install, 'ClusterRole', 'kubeairunway-asyncactor-editor');
    const viewer = find(install, 'ClusterRole', 'kubeairunway-asyncactor-viewer');
    expect(editor.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(viewer.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    for (const verb of ['create', 'update', 'patch', 'delete']) expect(allows(rulesOf(editor), verb, group, plural), verb).toBe(true);
    expect(allows(rulesOf(editor), 'patch', group, `${plural}/status`)).toBe(false);
    expect(allows(rulesOf(viewer), 'list', group, plural)).toBe(true);
    expect(allows(rulesOf(viewer), 'patch', group, plural)).toBe(false);
    for (const r of [editor, viewer]) expect([...resourcesOf(rulesOf(r))].every((x) => x.endsWith(`.${group}`)), r.metadata.name).toBe(true);
  });

  it('users: FlameCluster editors and viewers through the built-in admin, edit and view roles; the status stays the controller\'s', () => {
    const { group, plural } = flameClusterKind.collection;
    const editor = find(install, 'ClusterRole', 'kubeairunway-flamecluster-editor');
    const viewer = find(install, 'ClusterRole', 'kubeairunway-flamecluster-viewer');
    expect(editor.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(viewer.metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    for (const verb of ['create', 'update', 'patch', 'delete']) expect(allows(rulesOf(editor), verb, group, plural), verb).toBe(true);
    expect(allows(rulesOf(editor), 'patch', group, `${plural}/status`)).toBe(false);
    expect(allows(rulesOf(viewer), 'list', group, plural)).toBe(true);
    expect(allows(rulesOf(viewer), 'patch', group, plural)).toBe(false);
    for (const r of [editor, viewer]) expect([...resourcesOf(rulesOf(r))].every((x) => x.endsWith(`.${group}`)), r.metadata.name).toBe(true);
  });

  it("the webhook's roles name exactly the configurations it registers and the Secret it stores", () => {
    const cluster = role('ClusterRole', 'kubeairunway-webhook');
    expect(allows(cluster, 'patch', 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations', DEFAULT_CONFIGURATION_NAMES.mutating)).toBe(true);
    expect(allows(cluster, 'create', 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', DEFAULT_CONFIGURATION_NAMES.validating)).toBe(true);
    const ns = role('Role', 'kubeairunway-webhook');
    expect(allows(ns, 'update', '', 'secrets', DEFAULT_SECRET_NAME)).toBe(true);
    expect(allows(ns, 'get', '', 'secrets', 'another-secret')).toBe(false);
    expect(find(install, 'Role', 'kubeairunway-webhook').metadata.namespace).toBe('kubeairunway-system');
  });

  it('no rule uses a wildcard or a verb that grants other rights (escalate, bind, impersonate)', () => {
    for (const m of install.filter((x) => x.kind === 'ClusterRole' || x.kind === 'Role')) {
      for (const r of rulesOf(m)) {
        const all = [...r.verbs, ...(r.apiGroups ?? []), ...(r.resources ?? [])];
        expect(all.filter((x) => x.includes('*')), m.metadata.name).toEqual([]);
        expect(r.verbs.filter((v) => ['escalate', 'bind', 'impersonate'].includes(v)), m.metadata.name).toEqual([]);
      }
    }
  });

  it('Secrets: the controller may only get one by name (metadata-only check); nothing may list or watch them', () => {
    for (const m of install.filter((x) => x.kind === 'ClusterRole' || x.kind === 'Role')) {
      const rules = rulesOf(m);
      expect(allows(rules, 'list', '', 'secrets') || allows(rules, 'watch', '', 'secrets'), m.metadata.name).toBe(false);
      if (m.kind === 'ClusterRole' && m.metadata.name !== 'kubeairunway-controller') expect(allows(rules, 'get', '', 'secrets', 'x'), m.metadata.name).toBe(false);
    }
    expect(rulesOf(find(install, 'ClusterRole', 'kubeairunway-controller')).filter((r) => r.resources?.includes('secrets'))).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    ]);
  });

  it('every binding refers to a role and a ServiceAccount of the install', () => {
    for (const b of install.filter((m) => m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding')) {
      const ref = b.roleRef as { kind: string; name: string };
      expect(() => find(install, ref.kind, ref.name)).not.toThrow();
      for (const s of b.subjects as { kind: string; name: string; namespace?: string }[]) {
        if (s.kind === 'ServiceAccount') expect(find(install, 'ServiceAccount', s.name).metadata.namespace).toBe(s.namespace);
        else expect(s).toEqual({ kind: 'Group', name: 'system:authenticated', apiGroup: 'rbac.authorization.k8s.io' });
      }
    }
  });
});

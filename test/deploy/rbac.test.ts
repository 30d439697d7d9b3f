// What the installed ServiceAccounts may and may not do, asked of the API server's authorizer (the
// SubjectAccessReview `kubectl auth can-i` sends; kubectl itself answers a sample) after applying the
// install's RBAC for real. The topology is the seed's (§3.7): the core controller (with the Flame,
// Asya and Kybernate roles, bound in every namespace), each provider alone, the webhook, and the
// Kybernate node worker (components/kybernate-node), which may do nothing at all; the all-in-one install
// binds the same provider roles to the controller instead (manifests.test.ts checks that binding,
// permissions.test.ts runs it). Then the Flame, Asya and Kybernate roles bound in one namespace only, as
// deploy/README.md's overlay does it, and the roles for users.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOY_DIR, kustomize } from '../../deploy/render.ts';
import { testKube, type TestKube } from '../support/env.ts';
import { canIAll, describeQuestion, type AccessQuestion } from './access-review.ts';
import { kubectlCanI, kubectlOk } from './kubectl.ts';
import { applyRbac, type Installed } from './install-rbac.ts';
import { find, NODE_COMPONENT, NODE_NAMESPACE, overlay, parseManifests, rendered, type Manifest } from './manifests.ts';
import { serviceAccountUser, SYSTEM_NAMESPACE } from './service-account.ts';

/** Any namespace a user deploys models in. */
const USER_NS = 'team-a';
const q = (verb: string, resource: string, extra: Partial<AccessQuestion> = {}): AccessQuestion => ({ verb, resource, ...extra });
const inUserNs = { namespace: USER_NS };

/**
 * Pods: only the controller creates them, the FlameClusters' (the Flame role), and reads one by name, a
 * KybernateCheckpoint's (the Kybernate role). A ServiceAccount that may create a pod in a namespace may
 * use every Secret and ServiceAccount there; one that reads pods reads their literal env values.
 */
const NO_PODS: AccessQuestion[] = [
  q('create', 'pods', inUserNs),
  q('create', 'pods', { namespace: SYSTEM_NAMESPACE }),
  q('create', 'pods', { namespace: 'kube-system' }),
  q('patch', 'pods', { namespace: 'kube-system' }),
  q('get', 'pods', inUserNs),
  q('get', 'pods', { namespace: 'kube-system' }),
];

/**
 * Deployments and StatefulSets: only the controller creates and patches them, the AsyncActors' (the Asya
 * role). Whoever may patch a workload may run containers of its choice with the workload's ServiceAccount.
 */
const NO_WORKLOADS: AccessQuestion[] = ['deployments.apps', 'statefulsets.apps'].flatMap((resource) => [
  q('create', resource, inUserNs),
  q('patch', resource, inUserNs),
  q('patch', resource, { namespace: 'kube-system' }),
  q('get', resource, inUserNs),
  q('list', resource),
]);

/** Nothing kubeairunway runs may do these: the ways a compromised controller would take over a cluster. */
const NEVER: AccessQuestion[] = [
  // Workloads are only applied (Asya): never replaced whole, deleted (a foreign one is only un-injected;
  // the standalone one goes by garbage collection) or scaled behind KEDA's back.
  ...['deployments.apps', 'statefulsets.apps'].flatMap((resource) => [q('update', resource, inUserNs), q('delete', resource, inUserNs), q('deletecollection', resource, inUserNs)]),
  q('patch', 'deployments.apps/scale', inUserNs),
  q('create', 'daemonsets.apps', inUserNs),
  q('patch', 'daemonsets.apps', { namespace: 'kube-system' }),
  q('patch', 'replicasets.apps', inUserNs),
  q('create', 'jobs.batch', inUserNs),
  q('create', 'cronjobs.batch', inUserNs),
  q('create', 'pods/exec', inUserNs),
  q('create', 'pods/attach', inUserNs),
  q('create', 'pods/portforward', inUserNs),
  q('create', 'pods/eviction', inUserNs),
  q('update', 'pods', inUserNs),
  q('delete', 'namespaces'),
  q('create', 'namespaces'),
  q('list', 'secrets'),
  q('watch', 'secrets'),
  q('list', 'secrets', inUserNs),
  q('create', 'secrets', inUserNs),
  q('update', 'secrets', inUserNs),
  q('delete', 'secrets', inUserNs),
  q('create', 'serviceaccounts/token', inUserNs),
  q('create', 'clusterroles.rbac.authorization.k8s.io'),
  q('escalate', 'clusterroles.rbac.authorization.k8s.io'),
  q('bind', 'clusterroles.rbac.authorization.k8s.io'),
  q('create', 'clusterrolebindings.rbac.authorization.k8s.io'),
  q('create', 'rolebindings.rbac.authorization.k8s.io', inUserNs),
  q('impersonate', 'users'),
  q('impersonate', 'serviceaccounts', inUserNs),
  q('create', 'customresourcedefinitions.apiextensions.k8s.io'),
  q('update', 'customresourcedefinitions.apiextensions.k8s.io', { name: 'modeldeployments.kubeairunway.ai' }),
  q('delete', 'customresourcedefinitions.apiextensions.k8s.io', { name: 'workspaces.kaito.sh' }),
  q('create', 'validatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'someone-elses-webhook' }),
  q('create', 'modeldeployments.kubeairunway.ai', inUserNs),
  q('update', 'modeldeployments.kubeairunway.ai', inUserNs),
  q('delete', 'modeldeployments.kubeairunway.ai', inUserNs),
  q('delete', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'kaito' }),
  q('get', 'nodes'),
];

interface Expectations {
  user: string;
  can: AccessQuestion[];
  cannot: AccessQuestion[];
}

const FLAME_CLUSTERS = 'flameclusters.flame.xflops.io';

/** The FlameCluster workflow and its watch (deploy/core/flame/cluster-role.yaml), in one namespace. */
const flameCan = (ns: { namespace: string }): AccessQuestion[] => [
  q('get', FLAME_CLUSTERS, ns),
  q('list', FLAME_CLUSTERS, ns),
  q('watch', FLAME_CLUSTERS, ns),
  q('patch', `${FLAME_CLUSTERS}/status`, ns),
  // blockOwnerDeletion on the children's owner reference (OwnerReferencesPermissionEnforcement).
  q('update', `${FLAME_CLUSTERS}/finalizers`, ns),
  ...['list', 'watch', 'create', 'patch', 'delete'].map((verb) => q(verb, 'pods', ns)),
  ...['list', 'watch', 'create', 'patch'].map((verb) => q(verb, 'services', ns)),
  ...['get', 'list', 'watch', 'create', 'patch'].map((verb) => q(verb, 'configmaps', ns)),
];

const ASYNC_ACTORS = 'asyncactors.asya.sh';
const SCALED_OBJECTS = 'scaledobjects.keda.sh';
/** The provider resources a binding follows from a ModelDeployment (and a Workspace named directly). */
const PROVIDER_KINDS = ['workspaces.kaito.sh', 'dynamographdeployments.nvidia.com', 'rayservices.ray.io'];

/** The AsyncActor workflow and its watch (deploy/core/asya/cluster-role.yaml), in one namespace. */
const asyaCan = (ns: { namespace: string }): AccessQuestion[] => [
  ...['get', 'list', 'watch', 'patch'].map((verb) => q(verb, ASYNC_ACTORS, ns)),
  q('patch', `${ASYNC_ACTORS}/status`, ns),
  // blockOwnerDeletion on the standalone workload's and the ScaledObject's owner reference.
  q('update', `${ASYNC_ACTORS}/finalizers`, ns),
  ...['get', 'list', 'watch', 'create', 'patch'].flatMap((verb) => [q(verb, 'deployments.apps', ns), q(verb, 'statefulsets.apps', ns)]),
  // The shared asya-runtime ConfigMap: applied, and read and deleted with the namespace's last actor.
  ...['get', 'create', 'patch', 'delete'].map((verb) => q(verb, 'configmaps', ns)),
  ...['create', 'patch', 'delete'].map((verb) => q(verb, SCALED_OBJECTS, ns)),
  ...PROVIDER_KINDS.map((resource) => q('get', resource, ns)),
];

/** What the Asya role leaves out, in any namespace: users own AsyncActors; workloads are applied, never deleted. */
const asyaCannot = (ns: { namespace: string }): AccessQuestion[] => [
  ...['create', 'update', 'delete'].map((verb) => q(verb, ASYNC_ACTORS, ns)),
  q('update', `${ASYNC_ACTORS}/status`, ns),
  ...['update', 'delete', 'deletecollection'].flatMap((verb) => [q(verb, 'deployments.apps', ns), q(verb, 'statefulsets.apps', ns)]),
  q('update', 'deployments.apps/scale', ns),
  q('patch', 'statefulsets.apps/scale', ns),
  q('patch', 'deployments.apps/status', ns),
  q('get', SCALED_OBJECTS, ns),
  q('update', SCALED_OBJECTS, ns),
  q('create', 'triggerauthentications.keda.sh', ns),
  q('create', 'replicasets.apps', ns),
  q('create', 'daemonsets.apps', ns),
];

/**
 * What the Flame role leaves out, in any namespace: users own FlameClusters; children go by garbage
 * collection. Its pods are never read by name (the Kybernate role's get on pods is another matter).
 */
const flameCannot = (ns: { namespace: string }, opts: { kybernate: boolean; asya?: boolean }): AccessQuestion[] => [
  ...['create', 'update', 'patch', 'delete'].map((verb) => q(verb, FLAME_CLUSTERS, ns)),
  q('update', `${FLAME_CLUSTERS}/status`, ns),
  ...(opts.kybernate ? [] : [q('get', 'pods', ns)]),
  q('deletecollection', 'pods', ns),
  q('patch', 'pods/status', ns),
  q('get', 'services', ns),
  q('update', 'services', ns),
  q('delete', 'services', ns),
  q('update', 'configmaps', ns),
  // Asya's role deletes its shared runtime ConfigMap with a namespace's last actor.
  ...(opts.asya ? [] : [q('delete', 'configmaps', ns)]),
  q('create', 'serviceaccounts', ns),
  q('create', 'persistentvolumeclaims', ns),
];

const CHECKPOINTS = 'kybernatecheckpoints.kybernate.io';
const RESTORES = 'kybernaterestores.kybernate.io';
const WORKLOADS = 'kybernateworkloads.kybernate.io';

/** The KybernateCheckpoint, KybernateRestore and KybernateWorkload workflows and their watches (deploy/core/kybernate/cluster-role.yaml), in one namespace. */
const kybernateCan = (ns: { namespace: string }): AccessQuestion[] => [
  // A workload's suspend creates its checkpoint (server-side apply) and deletes its older ones.
  ...['get', 'list', 'watch', 'patch', 'create', 'delete'].map((verb) => q(verb, CHECKPOINTS, ns)),
  q('patch', `${CHECKPOINTS}/status`, ns),
  ...[RESTORES, WORKLOADS].flatMap((resource) => [
    ...['get', 'list', 'watch'].map((verb) => q(verb, resource, ns)),
    q('patch', `${resource}/status`, ns),
    q('update', `${resource}/finalizers`, ns),
  ]),
  // resolveCheckpointPod: the pod spec.podName names; applyRestorePod and applyWorkloadPod: their pod,
  // by server-side apply; deleteWorkloadPod: a suspended workload's pod.
  q('get', 'pods', { ...ns, name: 'any-pod' }),
  ...['list', 'watch', 'create', 'patch', 'delete'].map((verb) => q(verb, 'pods', ns)),
];

/** What the Kybernate role leaves out, in any namespace: users own checkpoints, restores and workloads. */
const kybernateCannot = (ns: { namespace: string }): AccessQuestion[] => [
  ...['update', 'deletecollection'].map((verb) => q(verb, CHECKPOINTS, ns)),
  q('update', `${CHECKPOINTS}/status`, ns),
  q('update', `${CHECKPOINTS}/finalizers`, ns),
  ...[RESTORES, WORKLOADS].flatMap((resource) => ['create', 'update', 'patch', 'delete'].map((verb) => q(verb, resource, ns))),
  q('update', `${WORKLOADS}/status`, ns),
  q('update', 'pods', ns),
  q('deletecollection', 'pods', ns),
  q('get', 'pods/log', ns),
  q('get', 'pods/status', ns),
];

const controller: Expectations = {
  user: serviceAccountUser('kubeairunway-controller'),
  can: [
    // The watcher and every core activity.
    q('get', 'modeldeployments.kubeairunway.ai', inUserNs),
    q('list', 'modeldeployments.kubeairunway.ai'),
    q('watch', 'modeldeployments.kubeairunway.ai'),
    q('patch', 'modeldeployments.kubeairunway.ai', inUserNs),
    q('patch', 'modeldeployments.kubeairunway.ai/status', inUserNs),
    q('list', 'inferenceproviderconfigs.kubeairunway.ai'),
    q('watch', 'inferenceproviderconfigs.kubeairunway.ai'),
    // The RulesValid condition of a config whose selection rule failed (activities/core/rule-error-report.ts).
    q('patch', 'inferenceproviderconfigs.kubeairunway.ai/status', { name: 'kaito' }),
    q('patch', 'inferenceproviderconfigs.kubeairunway.ai/status', { name: 'a-third-party-provider' }),
    q('list', 'customresourcedefinitions.apiextensions.k8s.io'),
    q('watch', 'customresourcedefinitions.apiextensions.k8s.io'),
    q('create', 'events', inUserNs),
    q('get', 'events', inUserNs),
    q('update', 'events', inUserNs),
    // The metadata-only existence check of the Hugging Face token Secret (kube/secret-exists.ts).
    q('get', 'secrets', { ...inUserNs, name: 'hf-token' }),
    // FlameClusters, in every namespace (the install's ClusterRoleBinding); the watcher's are cluster-wide.
    ...flameCan(inUserNs),
    q('list', FLAME_CLUSTERS),
    q('watch', FLAME_CLUSTERS),
    q('watch', 'pods'),
    q('watch', 'services'),
    q('watch', 'configmaps'),
    // AsyncActors, in every namespace (the install's ClusterRoleBinding); the watcher's are cluster-wide.
    ...asyaCan(inUserNs),
    ...asyaCan({ namespace: 'kube-system' }),
    q('list', ASYNC_ACTORS),
    q('watch', ASYNC_ACTORS),
    q('watch', 'deployments.apps'),
    q('list', 'statefulsets.apps'),
    // KybernateCheckpoints, in every namespace (the install's ClusterRoleBinding); the watcher's are cluster-wide.
    ...kybernateCan(inUserNs),
    ...kybernateCan({ namespace: 'kube-system' }),
    q('list', CHECKPOINTS),
    q('watch', CHECKPOINTS),
    q('list', RESTORES),
    q('watch', RESTORES),
    q('list', WORKLOADS),
    q('watch', WORKLOADS),
  ],
  cannot: [
    ...flameCannot(inUserNs, { kybernate: true, asya: true }),
    ...asyaCannot(inUserNs),
    ...kybernateCannot(inUserNs),
    // The core knows no provider kind and writes no provider's registration; Asya only reads the
    // provider resource a binding follows.
    ...PROVIDER_KINDS.flatMap((resource) => ['list', 'watch', 'create', 'patch', 'delete'].map((verb) => q(verb, resource, inUserNs))),
    q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'kaito' }),
    q('get', 'customresourcedefinitions.apiextensions.k8s.io', { name: 'workspaces.kaito.sh' }),
    q('update', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'kubeairunway-webhook-tls' }),
    q('patch', 'mutatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'kubeairunway-mutating-webhook' }),
    q('update', 'modeldeployments.kubeairunway.ai/finalizers', inUserNs),
  ],
};

function provider(name: string, group: string, plural: string, other: { group: string; plural: string; ipc: string }): Expectations {
  const resource = `${plural}.${group}`;
  return {
    user: serviceAccountUser(`${name}-provider`),
    can: [
      q('get', 'modeldeployments.kubeairunway.ai', inUserNs),
      q('patch', 'modeldeployments.kubeairunway.ai/status', inUserNs),
      q('update', 'modeldeployments.kubeairunway.ai/finalizers', inUserNs),
      q('create', 'inferenceproviderconfigs.kubeairunway.ai', { name }),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name }),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai/status', { name }),
      q('get', 'customresourcedefinitions.apiextensions.k8s.io', { name: resource }),
      // The registration's watch of its CRD (worker/registration.ts), by name.
      q('list', 'customresourcedefinitions.apiextensions.k8s.io', { name: resource }),
      q('watch', 'customresourcedefinitions.apiextensions.k8s.io', { name: resource }),
      ...['get', 'create', 'patch', 'delete'].map((verb) => q(verb, resource, inUserNs)),
      q('list', resource),
      q('watch', resource),
      q('create', 'events', inUserNs),
      q('update', 'events', inUserNs),
      // The claims of spec.model.storage it creates, and deletes with the deployment.
      ...['list', 'create', 'patch', 'delete'].map((verb) => q(verb, 'persistentvolumeclaims', inUserNs)),
    ],
    cannot: [
      // Another provider's kind, registration and CRD.
      q('create', `${other.plural}.${other.group}`, inUserNs),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name: other.ipc }),
      q('create', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'a-new-provider' }),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai/status', { name: other.ipc }),
      q('get', 'customresourcedefinitions.apiextensions.k8s.io', { name: `${other.plural}.${other.group}` }),
      q('watch', 'customresourcedefinitions.apiextensions.k8s.io', { name: `${other.plural}.${other.group}` }),
      q('list', 'customresourcedefinitions.apiextensions.k8s.io'),
      // The core's part: watching deployments, finalizers, provider selection, the Secret check.
      q('list', 'modeldeployments.kubeairunway.ai'),
      q('patch', 'modeldeployments.kubeairunway.ai', inUserNs),
      q('get', 'secrets', { ...inUserNs, name: 'hf-token' }),
      // Every write is a server-side apply or a patch.
      q('update', resource, inUserNs),
      q('deletecollection', resource, inUserNs),
      // AsyncActors and KybernateCheckpoints are the core's.
      q('list', ASYNC_ACTORS),
      q('list', CHECKPOINTS),
      q('create', SCALED_OBJECTS, inUserNs),
      // Claims are written, never read.
      q('get', 'persistentvolumeclaims', inUserNs),
      q('update', 'persistentvolumeclaims', inUserNs),
    ],
  };
}

const providers: Expectations[] = [
  provider('kaito', 'kaito.sh', 'workspaces', { group: 'ray.io', plural: 'rayservices', ipc: 'kuberay' }),
  provider('dynamo', 'nvidia.com', 'dynamographdeployments', { group: 'kaito.sh', plural: 'workspaces', ipc: 'kaito' }),
  provider('kuberay', 'ray.io', 'rayservices', { group: 'nvidia.com', plural: 'dynamographdeployments', ipc: 'dynamo' }),
];
// Only KAITO writes a ConfigMap (its vLLM inference config); it never reads one.
providers[0]!.can.push(...['list', 'create', 'patch', 'delete'].map((verb) => q(verb, 'configmaps', inUserNs)));
providers[0]!.cannot.push(q('get', 'configmaps', inUserNs), q('watch', 'configmaps'));
providers[1]!.cannot.push(q('create', 'configmaps', inUserNs));

const webhook: Expectations = {
  user: serviceAccountUser('kubeairunway-webhook'),
  can: [
    q('get', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'kubeairunway-webhook-tls' }),
    q('update', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'kubeairunway-webhook-tls' }),
    q('create', 'secrets', { namespace: SYSTEM_NAMESPACE }),
    ...['get', 'create', 'patch'].flatMap((verb) => [
      q(verb, 'mutatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'kubeairunway-mutating-webhook' }),
      q(verb, 'validatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'kubeairunway-validating-webhook' }),
    ]),
    q('list', 'inferenceproviderconfigs.kubeairunway.ai'),
  ],
  cannot: [
    // Its Secret only, in its namespace only.
    q('get', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'some-other-secret' }),
    q('update', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'some-other-secret' }),
    q('list', 'secrets', { namespace: SYSTEM_NAMESPACE }),
    q('delete', 'secrets', { namespace: SYSTEM_NAMESPACE, name: 'kubeairunway-webhook-tls' }),
    q('get', 'secrets', { ...inUserNs, name: 'hf-token' }),
    // Its own configurations only, and never their deletion.
    q('patch', 'mutatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'someone-elses-webhook' }),
    q('get', 'validatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'someone-elses-webhook' }),
    q('list', 'validatingwebhookconfigurations.admissionregistration.k8s.io'),
    q('delete', 'validatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'kubeairunway-validating-webhook' }),
    q('delete', 'mutatingwebhookconfigurations.admissionregistration.k8s.io', { name: 'kubeairunway-mutating-webhook' }),
    // Admission reads the object it is sent; it needs no ModelDeployment access of its own.
    q('get', 'modeldeployments.kubeairunway.ai', inUserNs),
    q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'kaito' }),
    q('create', 'events', inUserNs),
    q('get', ASYNC_ACTORS, inUserNs),
    q('get', CHECKPOINTS, inUserNs),
  ],
};

/**
 * The Kybernate node worker (components/kybernate-node): Temporal and containerd only, so nothing at all
 * here, not even what every other process of kubeairunway does. Its ServiceAccount is bound to no role
 * (and its pods mount no token); the cluster's discovery roles (system:basic-user and friends) are all
 * it holds, as every authenticated user does.
 */
const nodeWorker: Expectations = {
  user: serviceAccountUser('kubeairunway-node', NODE_NAMESPACE),
  can: [],
  cannot: [
    // Less InferenceProviderConfigs, which every authenticated user may read (kubeairunway-providerconfig-viewer).
    ...controller.can.filter((x) => x.resource !== 'inferenceproviderconfigs.kubeairunway.ai' || !['list', 'watch'].includes(x.verb)),
    q('get', 'pods', { namespace: NODE_NAMESPACE }),
    q('list', 'pods'),
    q('get', 'nodes', { name: 'any-node' }),
    q('get', 'configmaps', { namespace: NODE_NAMESPACE, name: 'kubeairunway-temporal' }),
    q('get', 'secrets', { namespace: NODE_NAMESPACE, name: 'kubeairunway-temporal-tls' }),
    q('create', 'events', { namespace: NODE_NAMESPACE }),
    q('patch', `${CHECKPOINTS}/status`, inUserNs),
  ],
};

describe('install RBAC: kubectl auth can-i as each ServiceAccount', () => {
  let installed: Installed;
  beforeAll(async () => {
    // The core with the node worker's component (its namespace and ServiceAccount), and each provider alone.
    installed = await applyRbac([...overlay(['core'], [NODE_COMPONENT]), ...rendered('providers/kaito'), ...rendered('providers/dynamo'), ...rendered('providers/kuberay')]);
  });
  afterAll(async () => {
    await installed?.remove();
  });

  it('kubectl auth can-i answers as the access reviews do (a sample: each identity, yes and no, a subresource and a cluster-wide question)', async () => {
    const sample = [controller, ...providers, webhook, nodeWorker].flatMap((e) => [...e.can.slice(0, 2), ...e.cannot.slice(0, 2), ...e.cannot.filter((q) => q.resource.includes('/')).slice(0, 1)].map((q) => ({ user: e.user, q })));
    const subjects = [...new Set(sample.map((s) => s.user))];
    const reviewed = new Map(await Promise.all(subjects.map(async (user) => [user, await canIAll(user, sample.filter((s) => s.user === user).map((s) => s.q))] as const)));
    const differing: string[] = [];
    for (const { user, q } of sample) {
      const byKubectl = await kubectlCanI(user, q);
      if (byKubectl !== reviewed.get(user)!.get(q)) differing.push(`${user}: ${describeQuestion(q)} (kubectl says ${byKubectl ? 'yes' : 'no'})`);
    }
    expect(sample.some((s) => !s.q.namespace)).toBe(true);
    expect(new Set(sample.map((s) => reviewed.get(s.user)!.get(s.q)))).toEqual(new Set([true, false]));
    expect(differing).toEqual([]);
  });

  for (const e of [controller, ...providers, webhook, nodeWorker]) {
    it(`${e.user} can do what its code does`, async () => {
      const answers = await canIAll(e.user, e.can);
      expect(e.can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    });
    it(`${e.user} cannot do what its code does not need`, async () => {
      const questions = [...e.cannot, ...NEVER, ...(e === controller ? [] : [...NO_PODS, ...NO_WORKLOADS])];
      const answers = await canIAll(e.user, questions);
      expect(questions.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
    });
  }
});

/** The roles deploy/README.md binds per namespace instead of in every namespace. */
const PER_NAMESPACE_ROLES = [
  { binding: 'kubeairunway-controller-flame', role: 'kubeairunway-flame' },
  { binding: 'kubeairunway-controller-asya', role: 'kubeairunway-asya' },
  { binding: 'kubeairunway-controller-kybernate', role: 'kubeairunway-kybernate' },
];

/**
 * deploy/README.md "Serving FlameClusters, AsyncActors and KybernateCheckpoints in some namespaces
 * only": the whole install, its Flame, Asya and Kybernate ClusterRoleBindings deleted, the three roles
 * bound by RoleBindings in the served namespace, and --namespaces on the controller.
 */
function servedInNamespaces(namespaces: readonly string[]): Manifest[] {
  const dir = mkdtempSync(join(tmpdir(), 'kubeairunway-served-ns-'));
  try {
    const bindings = namespaces.flatMap((namespace) =>
      PER_NAMESPACE_ROLES.map(({ binding, role }) => ({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: binding, namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'ServiceAccount', name: 'kubeairunway-controller', namespace: SYSTEM_NAMESPACE }],
      })),
    );
    writeFileSync(join(dir, 'role-bindings.yaml'), bindings.map((b) => JSON.stringify(b)).join('\n---\n'));
    const deletions = PER_NAMESPACE_ROLES.map(({ binding }) => ({
      patch: ['$patch: delete', 'apiVersion: rbac.authorization.k8s.io/v1', 'kind: ClusterRoleBinding', 'metadata:', `  name: ${binding}`].join('\n'),
    }));
    const flag = [{ op: 'add', path: '/spec/template/spec/containers/0/args/-', value: `--namespaces=${namespaces.join(',')}` }];
    const kustomization = {
      resources: [relative(dir, DEPLOY_DIR), 'role-bindings.yaml'],
      patches: [...deletions, { target: { group: 'apps', version: 'v1', kind: 'Deployment', name: 'kubeairunway-controller' }, patch: JSON.stringify(flag) }],
    };
    writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify(kustomization));
    return parseManifests(kustomize(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('install RBAC: the Flame, Asya and Kybernate roles bound in some namespaces only (deploy/README.md)', () => {
  let installed: Installed;
  let served: TestKube;
  let manifests: Manifest[];
  beforeAll(async () => {
    served = await testKube('deploy-served');
    manifests = servedInNamespaces([served.namespace]);
    installed = await applyRbac(manifests);
  });
  afterAll(async () => {
    await installed?.remove();
    await served?.cleanup();
  });

  it('renders RoleBindings instead of the ClusterRoleBindings, and the controller watches the served namespace only', () => {
    for (const { binding } of PER_NAMESPACE_ROLES) {
      expect(manifests.filter((m) => m.metadata.name === binding).map((m) => `${m.kind} ${m.metadata.namespace}`)).toEqual([`RoleBinding ${served.namespace}`]);
    }
    const args = (find(manifests, 'Deployment', 'kubeairunway-controller').spec as { template: { spec: { containers: { args: string[] }[] } } }).template.spec.containers[0]!.args;
    expect(args).toContain(`--namespaces=${served.namespace}`);
  });

  it('the controller serves FlameClusters, AsyncActors and KybernateCheckpoints in that namespace, and creates or reads pods or touches workloads nowhere else', async () => {
    const user = serviceAccountUser('kubeairunway-controller');
    const ns = { namespace: served.namespace };
    const can = [...flameCan(ns), ...asyaCan(ns), ...kybernateCan(ns), q('create', 'events', ns)];
    // The built-in providers run in this process, so their roles are the controller's too, everywhere:
    // KAITO's ConfigMap rule (list, create, patch, delete) and every provider's own kind.
    const kaitoConfigMaps = (x: AccessQuestion) => x.resource === 'configmaps' && ['list', 'create', 'patch', 'delete'].includes(x.verb);
    const providerKinds = (x: AccessQuestion) => PROVIDER_KINDS.includes(x.resource);
    // Every provider's claims of spec.model.storage (list, create, patch, delete), everywhere too.
    const providerClaims = (x: AccessQuestion) => x.resource === 'persistentvolumeclaims' && ['list', 'create', 'patch', 'delete'].includes(x.verb);
    // The deployment provider's role (plain Deployments, Services, pods read for status) is cluster-wide
    // like every provider role: with it in the process, those kinds are the controller's everywhere.
    // deploy/README.md says so, and how to run a namespaced install without it.
    const plainWorkloads = (x: AccessQuestion) =>
      (x.resource === 'pods' && ['get', 'list', 'watch'].includes(x.verb)) ||
      (x.resource === 'services' && ['list', 'create', 'patch', 'delete'].includes(x.verb)) ||
      (x.resource === 'deployments.apps' && ['get', 'list', 'watch', 'create', 'patch', 'delete'].includes(x.verb));
    const cannot = [
      ...flameCannot(ns, { kybernate: true, asya: true }).filter((x) => !kaitoConfigMaps(x) && !providerClaims(x)),
      ...asyaCannot(ns),
      ...kybernateCannot(ns),
      ...NO_PODS,
      ...NO_WORKLOADS,
      ...['list', 'watch'].flatMap((verb) => [q(verb, FLAME_CLUSTERS), q(verb, 'pods'), q(verb, 'services'), q(verb, ASYNC_ACTORS), q(verb, 'deployments.apps'), q(verb, 'statefulsets.apps'), q(verb, CHECKPOINTS)]),
      q('get', FLAME_CLUSTERS, inUserNs),
      q('create', 'services', inUserNs),
      q('get', 'configmaps', inUserNs),
      q('watch', 'configmaps', inUserNs),
      ...asyaCan(inUserNs).filter((x) => !kaitoConfigMaps(x) && !providerKinds(x)),
      ...asyaCan({ namespace: 'kube-system' }).filter((x) => !kaitoConfigMaps(x) && !providerKinds(x)),
      ...kybernateCan(inUserNs),
      ...kybernateCan({ namespace: 'kube-system' }),
      ...NEVER,
    ].filter((x) => !plainWorkloads(x));
    const answers = await canIAll(user, [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });
});

describe('install RBAC: roles for users of ModelDeployments, FlameClusters, AsyncActors and the Kybernate kinds', () => {
  let installed: Installed;
  let kube: TestKube;
  beforeAll(async () => {
    installed = await applyRbac(rendered('core'));
    kube = await testKube('deploy-users');
    const bindings = [
      ['alice', 'kubeairunway-modeldeployment-editor'],
      ['alice', 'kubeairunway-flamecluster-editor'],
      ['bob', 'kubeairunway-modeldeployment-viewer'],
      ['bob', 'kubeairunway-flamecluster-viewer'],
      ['alice', 'kubeairunway-asyncactor-editor'],
      ['bob', 'kubeairunway-asyncactor-viewer'],
      ['alice', 'kubeairunway-kybernate-editor'],
      ['bob', 'kubeairunway-kybernate-viewer'],
    ];
    for (const [user, role] of bindings) {
      await kubectlOk(['create', 'rolebinding', `${user}-${role}`, `--clusterrole=${role}`, `--user=${user}`, `--namespace=${kube.namespace}`]);
    }
  });
  afterAll(async () => {
    await kube?.cleanup();
    await installed?.remove();
  });

  it('an editor manages ModelDeployments in the namespace, and nothing the controller creates for them', async () => {
    const ns = { namespace: kube.namespace };
    const can = [
      ...['create', 'update', 'patch', 'delete', 'list', 'watch'].map((verb) => q(verb, 'modeldeployments.kubeairunway.ai', ns)),
      q('update', 'modeldeployments.kubeairunway.ai/scale', ns),
      q('list', 'inferenceproviderconfigs.kubeairunway.ai'),
    ];
    const cannot = [
      q('patch', 'modeldeployments.kubeairunway.ai/status', ns),
      q('create', 'modeldeployments.kubeairunway.ai', inUserNs),
      q('create', 'workspaces.kaito.sh', ns),
      q('create', 'rayservices.ray.io', ns),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'kaito' }),
      q('get', 'secrets', ns),
    ];
    const answers = await canIAll('alice', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('an editor manages FlameClusters in the namespace, and nothing the controller creates for them', async () => {
    const ns = { namespace: kube.namespace };
    const can = [
      ...['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'].map((verb) => q(verb, FLAME_CLUSTERS, ns)),
      q('get', `${FLAME_CLUSTERS}/status`, ns),
    ];
    const cannot = [
      // The status is the controller's.
      q('patch', `${FLAME_CLUSTERS}/status`, ns),
      q('update', `${FLAME_CLUSTERS}/status`, ns),
      q('create', FLAME_CLUSTERS, inUserNs),
      q('list', FLAME_CLUSTERS),
      // The cluster's children are the controller's to create.
      q('create', 'pods', ns),
      q('delete', 'pods', ns),
      q('patch', 'services', ns),
      q('create', 'configmaps', ns),
    ];
    const answers = await canIAll('alice', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('a viewer reads FlameClusters and changes nothing', async () => {
    const ns = { namespace: kube.namespace };
    const can = [q('get', FLAME_CLUSTERS, ns), q('list', FLAME_CLUSTERS, ns), q('watch', FLAME_CLUSTERS, ns), q('get', `${FLAME_CLUSTERS}/status`, ns)];
    const cannot = [...['create', 'update', 'patch', 'delete'].map((verb) => q(verb, FLAME_CLUSTERS, ns)), q('patch', `${FLAME_CLUSTERS}/status`, ns), q('list', 'pods', ns)];
    const answers = await canIAll('bob', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('an editor manages AsyncActors in the namespace, and nothing the controller creates or injects for them', async () => {
    const ns = { namespace: kube.namespace };
    const can = [
      ...['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'].map((verb) => q(verb, ASYNC_ACTORS, ns)),
      q('get', `${ASYNC_ACTORS}/status`, ns),
    ];
    const cannot = [
      // The status is the controller's.
      q('patch', `${ASYNC_ACTORS}/status`, ns),
      q('update', `${ASYNC_ACTORS}/status`, ns),
      q('create', ASYNC_ACTORS, inUserNs),
      q('list', ASYNC_ACTORS),
      // The workload, its ScaledObject and the runtime ConfigMap are the controller's to apply.
      q('create', 'deployments.apps', ns),
      q('patch', 'statefulsets.apps', ns),
      q('create', SCALED_OBJECTS, ns),
      q('patch', 'configmaps', ns),
    ];
    const answers = await canIAll('alice', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('a viewer reads AsyncActors and changes nothing', async () => {
    const ns = { namespace: kube.namespace };
    const can = [q('get', ASYNC_ACTORS, ns), q('list', ASYNC_ACTORS, ns), q('watch', ASYNC_ACTORS, ns), q('get', `${ASYNC_ACTORS}/status`, ns)];
    const cannot = [...['create', 'update', 'patch', 'delete'].map((verb) => q(verb, ASYNC_ACTORS, ns)), q('patch', `${ASYNC_ACTORS}/status`, ns), q('get', 'deployments.apps', ns)];
    const answers = await canIAll('bob', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('an editor manages the three Kybernate kinds in the namespace, not their statuses, and nothing the controller or the node worker does for them', async () => {
    const ns = { namespace: kube.namespace };
    const can = [CHECKPOINTS, RESTORES, WORKLOADS].flatMap((resource) => [
      ...['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'].map((verb) => q(verb, resource, ns)),
      q('get', `${resource}/status`, ns),
    ]);
    const cannot = [
      // The statuses are the controller's.
      ...[CHECKPOINTS, RESTORES, WORKLOADS].flatMap((resource) => [q('patch', `${resource}/status`, ns), q('update', `${resource}/status`, ns)]),
      q('create', CHECKPOINTS, inUserNs),
      q('list', CHECKPOINTS),
      // The pod a checkpoint names is read by the controller, not through this role.
      q('get', 'pods', ns),
      q('create', 'pods', ns),
    ];
    const answers = await canIAll('alice', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('a viewer reads the three Kybernate kinds and changes nothing', async () => {
    const ns = { namespace: kube.namespace };
    const can = [CHECKPOINTS, RESTORES, WORKLOADS].flatMap((resource) => [q('get', resource, ns), q('list', resource, ns), q('watch', resource, ns), q('get', `${resource}/status`, ns)]);
    const cannot = [CHECKPOINTS, RESTORES, WORKLOADS].flatMap((resource) => [...['create', 'update', 'patch', 'delete'].map((verb) => q(verb, resource, ns)), q('patch', `${resource}/status`, ns)]);
    const answers = await canIAll('bob', [...can, ...cannot, q('get', 'pods', ns)]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect([...cannot, q('get', 'pods', ns)].filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });

  it('a viewer reads ModelDeployments and changes nothing', async () => {
    const ns = { namespace: kube.namespace };
    const can = [q('get', 'modeldeployments.kubeairunway.ai', ns), q('list', 'modeldeployments.kubeairunway.ai/status', ns)];
    const cannot = ['create', 'patch', 'delete'].map((verb) => q(verb, 'modeldeployments.kubeairunway.ai', ns));
    const answers = await canIAll('bob', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });
});

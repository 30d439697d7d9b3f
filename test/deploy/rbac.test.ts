// What the installed ServiceAccounts may and may not do, asked with `kubectl auth can-i` after applying
// the install's RBAC for real. The topology is the seed's (§3.7): the core controller, each provider
// alone, the webhook; the all-in-one install binds the same provider roles to the controller instead
// (manifests.test.ts checks that binding, permissions.test.ts runs it).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKube, type TestKube } from '../support/env.ts';
import { canIAll, describeQuestion, kubectlOk, type AccessQuestion } from './kubectl.ts';
import { applyRbac, type Installed } from './install-rbac.ts';
import { rendered } from './manifests.ts';
import { serviceAccountUser, SYSTEM_NAMESPACE } from './service-account.ts';

/** Any namespace a user deploys models in. */
const USER_NS = 'team-a';
const q = (verb: string, resource: string, extra: Partial<AccessQuestion> = {}): AccessQuestion => ({ verb, resource, ...extra });
const inUserNs = { namespace: USER_NS };

/** Nothing kubeairunway runs may do these: the ways a compromised controller would take over a cluster. */
const NEVER: AccessQuestion[] = [
  q('create', 'pods', inUserNs),
  q('create', 'pods', { namespace: SYSTEM_NAMESPACE }),
  q('create', 'deployments.apps', inUserNs),
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
  ],
  cannot: [
    // The core knows no provider kind and writes no provider's registration.
    q('get', 'workspaces.kaito.sh', inUserNs),
    q('create', 'rayservices.ray.io', inUserNs),
    q('delete', 'dynamographdeployments.nvidia.com', inUserNs),
    q('create', 'configmaps', inUserNs),
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
      ...['get', 'create', 'patch', 'delete'].map((verb) => q(verb, resource, inUserNs)),
      q('list', resource),
      q('watch', resource),
      q('create', 'events', inUserNs),
      q('update', 'events', inUserNs),
    ],
    cannot: [
      // Another provider's kind, registration and CRD.
      q('create', `${other.plural}.${other.group}`, inUserNs),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai', { name: other.ipc }),
      q('create', 'inferenceproviderconfigs.kubeairunway.ai', { name: 'a-new-provider' }),
      q('patch', 'inferenceproviderconfigs.kubeairunway.ai/status', { name: other.ipc }),
      q('get', 'customresourcedefinitions.apiextensions.k8s.io', { name: `${other.plural}.${other.group}` }),
      q('list', 'customresourcedefinitions.apiextensions.k8s.io'),
      // The core's part: watching deployments, finalizers, provider selection, the Secret check.
      q('list', 'modeldeployments.kubeairunway.ai'),
      q('patch', 'modeldeployments.kubeairunway.ai', inUserNs),
      q('get', 'secrets', { ...inUserNs, name: 'hf-token' }),
      // Every write is a server-side apply or a patch.
      q('update', resource, inUserNs),
      q('deletecollection', resource, inUserNs),
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
  ],
};

describe('install RBAC: kubectl auth can-i as each ServiceAccount', () => {
  let installed: Installed;
  beforeAll(async () => {
    installed = await applyRbac([...rendered('core'), ...rendered('providers/kaito'), ...rendered('providers/dynamo'), ...rendered('providers/kuberay')]);
  });
  afterAll(async () => {
    await installed?.remove();
  });

  for (const e of [controller, ...providers, webhook]) {
    it(`${e.user} can do what its code does`, async () => {
      const answers = await canIAll(e.user, e.can);
      expect(e.can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    });
    it(`${e.user} cannot do what its code does not need`, async () => {
      const questions = [...e.cannot, ...NEVER];
      const answers = await canIAll(e.user, questions);
      expect(questions.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
    });
  }
});

describe('install RBAC: roles for users of ModelDeployments', () => {
  let installed: Installed;
  let kube: TestKube;
  beforeAll(async () => {
    installed = await applyRbac(rendered('core'));
    kube = await testKube('deploy-users');
    for (const [user, role] of [['alice', 'kubeairunway-modeldeployment-editor'], ['bob', 'kubeairunway-modeldeployment-viewer']]) {
      await kubectlOk(['create', 'rolebinding', `${user}-md`, `--clusterrole=${role}`, `--user=${user}`, `--namespace=${kube.namespace}`]);
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

  it('a viewer reads ModelDeployments and changes nothing', async () => {
    const ns = { namespace: kube.namespace };
    const can = [q('get', 'modeldeployments.kubeairunway.ai', ns), q('list', 'modeldeployments.kubeairunway.ai/status', ns)];
    const cannot = ['create', 'patch', 'delete'].map((verb) => q(verb, 'modeldeployments.kubeairunway.ai', ns));
    const answers = await canIAll('bob', [...can, ...cannot]);
    expect(can.filter((x) => !answers.get(x)).map(describeQuestion)).toEqual([]);
    expect(cannot.filter((x) => answers.get(x)).map(describeQuestion)).toEqual([]);
  });
});

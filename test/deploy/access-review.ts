// "May this user do this?", answered by the API server's authorizer through a SubjectAccessReview: the
// question `kubectl auth can-i --as=<user>` asks, as one request instead of one kubectl process each (a
// process costs ~0.2 s of CPU for its discovery; the RBAC tests ask about 700 questions).
// rbac.test.ts checks on a sample that kubectl answers the same.

import { AuthorizationV1Api } from '@kubernetes/client-node';
import { kubeConfig } from '../support/env.ts';

export interface AccessQuestion {
  verb: string;
  /** `resource`, `resource.group`, `resource/subresource` or `resource.group/subresource`, as kubectl takes it. */
  resource: string;
  name?: string;
  /** Omitted: asked cluster-wide (--all-namespaces for namespaced resources). */
  namespace?: string;
}

export function describeQuestion(q: AccessQuestion): string {
  return `${q.verb} ${q.resource}${q.name ? `/${q.name}` : ''} ${q.namespace ? `in ${q.namespace}` : 'cluster-wide'}`;
}

const SERVICE_ACCOUNT_USER = /^system:serviceaccount:([^:]+):[^:]+$/;

/** The groups the API server gives an impersonated user: a ServiceAccount's two groups, and every user's. */
function groupsOf(user: string): string[] {
  const serviceAccount = SERVICE_ACCOUNT_USER.exec(user);
  return serviceAccount ? ['system:serviceaccounts', `system:serviceaccounts:${serviceAccount[1]}`, 'system:authenticated'] : ['system:authenticated'];
}

/** `resource.group/subresource` apart; a name without a group is the core group's, as kubectl resolves it. */
function resourceAttributes(q: AccessQuestion) {
  const [qualified, subresource] = q.resource.split('/');
  const dot = qualified!.indexOf('.');
  return {
    verb: q.verb,
    resource: dot < 0 ? qualified! : qualified!.slice(0, dot),
    group: dot < 0 ? '' : qualified!.slice(dot + 1),
    ...(subresource ? { subresource } : {}),
    ...(q.name ? { name: q.name } : {}),
    namespace: q.namespace ?? '',
  };
}

/** Whether `user` (e.g. system:serviceaccount:NS:NAME) may do `q`. */
export async function canI(api: AuthorizationV1Api, user: string, q: AccessQuestion): Promise<boolean> {
  const review = await api.createSubjectAccessReview({ body: { spec: { user, groups: groupsOf(user), resourceAttributes: resourceAttributes(q) } } });
  return review.status?.allowed === true;
}

/** Answers many questions a few at a time. */
export async function canIAll(user: string, questions: readonly AccessQuestion[], concurrency = 8): Promise<Map<AccessQuestion, boolean>> {
  const api = kubeConfig().makeApiClient(AuthorizationV1Api);
  const answers = new Map<AccessQuestion, boolean>();
  const queue = [...questions];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let q = queue.shift(); q; q = queue.shift()) answers.set(q, await canI(api, user, q));
    }),
  );
  return answers;
}

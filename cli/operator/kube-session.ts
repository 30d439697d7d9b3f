// Opening the cluster a command talks to, from --kubeconfig and --context, with errors a person can
// act on. Its own module (only the Kubernetes client): commands that need no Temporal server, such as
// `conformance`, load this and not session.ts.

import { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { CliError } from '../../present/errors.ts';
import type { KubeOptions } from './connection-options.ts';

export interface KubeSession {
  kc: KubeConfig;
  objects: CustomObjects;
  /** The namespace of the kubeconfig context, for a NAME given without one. */
  contextNamespace: string;
  server: string;
}

export function openKube(opts: KubeOptions): KubeSession {
  const kc = new KubeConfig();
  try {
    if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
    else kc.loadFromDefault();
  } catch (err) {
    const reason = err instanceof TypeError ? 'it is not a kubeconfig file' : firstLine((err as Error).message);
    throw new CliError(`Cannot load the kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${reason}.`);
  }
  if (opts.context) {
    if (!kc.getContexts().some((c) => c.name === opts.context)) throw new CliError(`The kubeconfig has no context '${opts.context}'.`);
    kc.setCurrentContext(opts.context);
  }
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new CliError('The kubeconfig names no cluster: pass --kubeconfig or set KUBECONFIG.');
  const context = kc.getContextObject(kc.getCurrentContext());
  return { kc, objects: new CustomObjects(kc), contextNamespace: context?.namespace ?? 'default', server };
}

/** The first line of a message, without its closing full stop (messages here add their own). */
export function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/[.\s]+$/, '');
}

import type { KindIdentity } from '../kind/status-write.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { example } from './examples.ts';
import { FakeObjects, FakeRecorder } from './fake-kube.ts';

export const NS = 'team-a';

/** An example of `kind` stored in team-a under its own name with uid `u-1`, `edit` applied to its spec; its ref and the fakes. */
export function storedExample(kind: KindIdentity, file: string, edit: (spec: Record<string, unknown>) => object = (spec) => spec, metadata: object = {}) {
  const raw = example(file);
  const name = raw.metadata!.name!;
  const objects = new FakeObjects();
  const recorder = new FakeRecorder();
  const resource = { group: kind.group, version: kind.version, plural: kind.plural, namespace: NS, name };
  objects.put(resource, { ...raw, metadata: { ...raw.metadata, namespace: NS, uid: 'u-1', generation: 1, ...metadata }, spec: edit({ ...(raw.spec as object) }) });
  return { objects, recorder, resource, ref: { namespace: NS, name, uid: 'u-1' }, stored: (): AnyObject | undefined => objects.at(resource) };
}

/** A pod as the kubelet reports it: Running and Ready on `node`, controlled by `owner` when given. */
export function runningPod(name: string, opts: { owner?: string; node?: string; containers?: { name: string; containerID?: string }[] } = {}): AnyObject {
  const containers = opts.containers ?? [{ name: 'model', containerID: 'containerd://abc123' }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...(opts.owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Owner', name: 'owner', uid: opts.owner, controller: true }] } : {}) },
    spec: { nodeName: opts.node ?? 'node-1', containers: containers.map((c) => ({ name: c.name, image: 'img' })) },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: containers.map((c) => ({ name: c.name, ...(c.containerID ? { containerID: c.containerID } : {}), state: { running: {} } })),
    },
  };
}

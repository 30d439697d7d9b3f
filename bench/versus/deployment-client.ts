// The bench's writes of ModelDeployments, counted: the API server's request total includes them, and
// they are the same for both controllers, so they are subtracted from what a controller is charged.
import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import type { Subject } from './subjects.ts';

const FIELD_MANAGER = 'kubeairunway-bench';

export class DeploymentClient {
  requests = 0;
  private readonly objects: CustomObjects;

  constructor(
    kc: KubeConfig,
    private readonly subject: Subject,
  ) {
    this.objects = new CustomObjects(kc);
  }

  private ref(name: string) {
    const s = this.subject;
    return { group: s.group, version: s.version, plural: s.plural, namespace: s.namespace, name };
  }

  /** Server-side apply, as `kubectl apply --server-side` does; returns the stored object (its uid). */
  async apply(name: string): Promise<AnyObject> {
    this.requests++;
    return this.objects.apply(this.ref(name), this.subject.manifest(name), FIELD_MANAGER);
  }

  async delete(name: string): Promise<void> {
    this.requests++;
    await this.objects.delete(this.ref(name));
  }
}

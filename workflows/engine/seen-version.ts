import { isAtLeast } from '../../kube/resource-version.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';

/**
 * The newest resourceVersion of its object a workflow has heard of (from watch signals): a pass's
 * first read asks for nothing older, so a cache lagging behind the event that woke it is not trusted.
 */
export class SeenVersion {
  constructor(private version: string | undefined = undefined) {}

  saw(resourceVersion: string | undefined): void {
    if (resourceVersion && isAtLeast(resourceVersion, this.version)) this.version = resourceVersion;
  }

  readRef(ref: ObjectRef): ReadRef {
    return this.version ? { ...ref, seenVersion: this.version } : ref;
  }
}

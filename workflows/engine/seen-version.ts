import { isAtLeast } from '../../contract/resource-version.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';

/**
 * The newest resourceVersion of its object a workflow has heard of (from watch signals): a pass's
 * first read asks for nothing older, so a cache lagging behind the event that woke it is not trusted.
 */
export class SeenVersion {
  constructor(private version_: string | undefined = undefined) {}

  saw(resourceVersion: string | undefined): void {
    if (resourceVersion && isAtLeast(resourceVersion, this.version_)) this.version_ = resourceVersion;
  }

  /** What continue-as-new carries: the signal that ended the last wait may be the next run's first pass. */
  get version(): string | undefined {
    return this.version_;
  }

  readRef(ref: ObjectRef): ReadRef {
    return this.version_ ? { ...ref, seenVersion: this.version_ } : ref;
  }
}

// The storage rules that need the ModelDeployment's name, which a CEL rule on the spec cannot read: the
// name of the claim the controller creates for a volume with `size` is `<name>-<volume>`, so a `size`
// beside any other claimName asks the controller to create and own a claim that is someone else's (a
// "foreign" claim, which it must never delete), and a name too long for a claim cannot be created.
// The rules within the spec alone are CEL rules of its schema (api/crd/storage-schema.ts). Never throws.

import { MAX_OBJECT_NAME_LENGTH } from './common/patterns.ts';
import { isPlainObject } from './overrides.ts';
import { field } from './spec-helpers.ts';
import type { ValidationResult } from './types.ts';
import { ValidationMessage } from './validation-messages.ts';

/** The claim the controller creates for volume `volume` of ModelDeployment `name` (the reference's `<md>-<volume>`). */
export function managedClaimName(name: string, volume: string): string {
  return `${name}-${volume}`;
}

/** `name` is the ModelDeployment's metadata.name; without it (a manifest that has none) there is nothing to compare with. */
export function storageRules(spec: Record<string, unknown>, name: string | undefined, out: ValidationResult): void {
  const volumes = field(spec, 'model', 'storage', 'volumes');
  if (!name || !Array.isArray(volumes)) return;
  volumes.forEach((volume: unknown, i) => {
    if (!isPlainObject(volume) || typeof volume.name !== 'string' || typeof volume.size !== 'string') return;
    const path = `spec.model.storage.volumes[${i}]`;
    const managed = managedClaimName(name, volume.name);
    const claim = volume.claimName;
    if (typeof claim === 'string' && claim !== managed) {
      out.errors.push({ field: `${path}.size`, message: ValidationMessage.storageSizeWithForeignClaim(path, claim, managed) });
    } else if (managed.length > MAX_OBJECT_NAME_LENGTH) {
      out.errors.push({ field: `${path}.name`, message: ValidationMessage.storageClaimNameTooLong(path, managed.length) });
    }
  });
}

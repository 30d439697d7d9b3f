// Schema pieces the three Kybernate CRDs share (seed 003 §3): storage of a checkpoint, the status fields
// every kind has, and the owner-name rule (the builders are those of ./field-schemas.ts and
// ./common-schemas.ts). The validators in api/kybernate/ check the same rules with the same messages
// (api/kybernate/crd.test.ts runs both over one table).

import { DEFAULT_STORAGE_TYPE } from '../kybernate/defaults.ts';
import { KybernateMessage } from '../kybernate/messages.ts';
import { MAX_OWNER_NAME_LENGTH } from '../kybernate/patterns.ts';
import { STORAGE_TYPES } from '../kybernate/values.ts';
import { conditionsSchema, observedGenerationSchema } from './common-schemas.ts';
import { enumOf, image, str } from './field-schemas.ts';
import { object } from '../schema/typed.ts';
import type { CelValidationRule } from './schema-types.ts';

/**
 * Where a checkpoint image goes. The default sits on the object itself ({}), so the API server fills
 * in `type` even when the whole section is left out.
 */
export const storageSchema = object(
  "Where the checkpoint image is kept: the node's containerd (default), a registry (image) or S3 (bucket, key).",
  {
    type: enumOf(STORAGE_TYPES, 'containerd, registry or s3.', { default: DEFAULT_STORAGE_TYPE }),
    image: image('registry: the image reference to push the checkpoint to.'),
    bucket: str('s3: the bucket.', { minLength: 1 }),
    key: str('s3: the object key, e.g. my-checkpoint.tar.', { minLength: 1 }),
  },
  {
    default: {},
    'x-kubernetes-validations': [
      { rule: "!has(self.type) || self.type != 'registry' || has(self.image)", message: KybernateMessage.registryNeedsImage, fieldPath: '.image', reason: 'FieldValueRequired' },
      {
        rule: "!has(self.type) || self.type != 's3' || (has(self.bucket) && has(self.key))",
        message: KybernateMessage.s3NeedsBucketAndKey,
        reason: 'FieldValueRequired',
      },
    ],
  },
);

/** The status fields all three kinds have. */
export const commonStatusFields = {
  message: str('Human-readable summary: what is happening, or why it failed.'),
  conditions: conditionsSchema,
  observedGeneration: observedGenerationSchema,
};

/**
 * Restores and workloads name their pod's label with their own name, so it is at most a label value
 * long. The rule sits on the whole object: only there can CEL see metadata.name.
 */
export function ownerNameRules(message: string): CelValidationRule[] {
  return [{ rule: `size(self.metadata.name) <= ${MAX_OWNER_NAME_LENGTH}`, message, reason: 'FieldValueInvalid' }];
}

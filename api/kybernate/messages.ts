// The messages of the Kybernate rules the API server enforces (CEL), word for word the same in the
// validators, so `kubectl apply` and the workflows answer alike.

import { MAX_OWNER_NAME_LENGTH } from './patterns.ts';

export const KybernateMessage = {
  registryNeedsImage: "'storage.image' is required when 'storage.type' is registry",
  s3NeedsBucketAndKey: "'storage.bucket' and 'storage.key' are required when 'storage.type' is s3",
  exactlyOneSource: "Exactly one of 'checkpointRef' or 'checkpointImage' must be set",
  replicaBounds: "'scaleToZero.minReplicas' must not be greater than 'scaleToZero.maxReplicas'",
  restoreName: `metadata.name must be at most ${MAX_OWNER_NAME_LENGTH} characters, since it is the value of the kybernate.io/restore label on the restore pod`,
  workloadName: `metadata.name must be at most ${MAX_OWNER_NAME_LENGTH} characters, since it names the workload's pod and is the value of its kybernate.io/workload label`,
} as const;

// `spec.model.storage`: persistent volumes mounted into the model pods (a model cache the weights land in
// once, a compilation cache, or any claim of the user's), declared once like the rest of the spec
// (api/crd/model-deployment-schema.ts takes it in). Rules within one volume are CEL rules on the item, rules
// across volumes CEL rules on `storage`: the API server, the webhook, the workflow and `kar validate` all
// evaluate them (api/schema/check.ts), in the words below. The one rule that needs the object's name (a
// `size` beside a claim the controller would not manage) is hand code: api/storage-rules.ts.
//
// Defaults that depend on another field (mountPath by purpose, claimName from the ModelDeployment's
// name, accessMode only for a claim the controller creates) cannot be CRD defaults: they are applied
// where volumes are rendered (providers/shared/storage.ts) and written in the descriptions.

import { DNS_LABEL_PATTERN, MAX_DNS_LABEL_LENGTH, MAX_OBJECT_NAME_LENGTH, OBJECT_NAME_DESCRIPTION, OBJECT_NAME_PATTERN } from '../common/patterns.ts';
import { MAX_STORAGE_VOLUMES } from '../limits.ts';
import { bool, enumOf, listOf, object, str } from '../schema/typed.ts';
import type { CelValidationRule } from './schema-types.ts';

export const VOLUME_PURPOSES = ['modelCache', 'compilationCache', 'custom'] as const;
/** The access modes of a PersistentVolumeClaim (core/v1). */
export const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;
/** Where a volume is mounted when its mountPath is left out; a `custom` volume has no default. */
export const DEFAULT_MOUNT_PATHS = { modelCache: '/model-cache', compilationCache: '/compilation-cache' } as const;
/** Access mode of a claim the controller creates when none is given: every replica on every node can mount it. */
export const DEFAULT_ACCESS_MODE = 'ReadWriteMany';

/**
 * A claim's size: a Kubernetes quantity without a sign and not zero (the API server refuses a claim that
 * requests no storage), written so RE2 and JavaScript read it alike (no lookahead).
 */
export const SIZE_PATTERN =
  '^(([0-9]*[1-9][0-9]*(\\.[0-9]*)?)|([0-9]*\\.[0-9]*[1-9][0-9]*))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?[0-9]+))?$';
/** An absolute path in the container. */
export const MOUNT_PATH_PATTERN = '^/.*$';
export const MAX_MOUNT_PATH_LENGTH = 1024;
/** A StorageClass name, or "" (no class: only a pre-provisioned volume without one binds). */
export const STORAGE_CLASS_PATTERN = '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** The validator's words for the patterns above; the CRD's CEL rules say the same (./friendly-patterns.ts). */
export const STORAGE_PATTERN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [DNS_LABEL_PATTERN]: "a DNS label (at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit, such as \"cache\")",
  [SIZE_PATTERN]: 'a Kubernetes quantity greater than zero such as "100Gi"',
  [MOUNT_PATH_PATTERN]: 'an absolute path such as "/model-cache"',
  [STORAGE_CLASS_PATTERN]: 'a StorageClass name such as "standard", or "" for none',
};

const words = (pattern: string) => ({ pattern, what: STORAGE_PATTERN_DESCRIPTIONS[pattern] });

/** The mount path a volume gets, in CEL over a volume `v` (defaults by purpose; '' for a custom volume without one). */
const mountPathOf = (v: string): string =>
  `(has(${v}.mountPath) ? ${v}.mountPath : (${v}.purpose == 'modelCache' ? '${DEFAULT_MOUNT_PATHS.modelCache}' : (${v}.purpose == 'compilationCache' ? '${DEFAULT_MOUNT_PATHS.compilationCache}' : '')))`;

/** Rules within one volume. Their messages are phrases about their field (see `rulePhrases` in api/schema/typed.ts). */
const volumeRules: CelValidationRule[] = [
  {
    rule: "(has(self.purpose) && self.purpose != 'custom') || has(self.mountPath)",
    message: 'is required when purpose is custom',
    fieldPath: '.mountPath',
    reason: 'FieldValueRequired',
  },
  {
    rule: 'has(self.size) || has(self.claimName)',
    message: 'is required unless size is set (size asks the controller to create the claim)',
    fieldPath: '.claimName',
    reason: 'FieldValueRequired',
  },
  {
    rule: '!has(self.storageClassName) || has(self.size)',
    message: 'can only be set with size (it applies to a claim the controller creates)',
    fieldPath: '.storageClassName',
    reason: 'FieldValueForbidden',
  },
  {
    rule: '!has(self.accessMode) || has(self.size)',
    message: 'can only be set with size (it applies to a claim the controller creates)',
    fieldPath: '.accessMode',
    reason: 'FieldValueForbidden',
  },
];

/** Rules across volumes, on `storage` (the interpreter, like the API server, runs rules on objects). */
const storageRules: CelValidationRule[] = [
  {
    rule: `!has(self.volumes) || self.volumes.all(v, ${mountPathOf('v')} == '' || self.volumes.exists_one(w, ${mountPathOf('w')} == ${mountPathOf('v')}))`,
    message: `must not mount two volumes at the same path (a volume's mountPath, or the default of its purpose: ${DEFAULT_MOUNT_PATHS.modelCache}, ${DEFAULT_MOUNT_PATHS.compilationCache})`,
    fieldPath: '.volumes',
    reason: 'FieldValueDuplicate',
  },
  {
    rule: "!has(self.volumes) || self.volumes.filter(v, v.purpose == 'modelCache').size() <= 1",
    message: 'can hold only one volume of purpose modelCache (the engine is pointed at one model cache)',
    fieldPath: '.volumes',
    reason: 'FieldValueInvalid',
  },
];

const volumeSchema = object(
  'A persistent volume mounted into every model-serving pod.',
  {
    accessMode: enumOf(ACCESS_MODES, `Access mode of the claim the controller creates (default ${DEFAULT_ACCESS_MODE}); only with size.`),
    claimName: str('An existing PersistentVolumeClaim in the same namespace; with size, defaults to <ModelDeployment name>-<volume name> (a claim the controller creates, owns and deletes with the deployment).', {
      maxLength: MAX_OBJECT_NAME_LENGTH,
      pattern: OBJECT_NAME_PATTERN,
      what: OBJECT_NAME_DESCRIPTION,
    }),
    mountPath: str(`Where the volume is mounted in the containers; defaults to ${DEFAULT_MOUNT_PATHS.modelCache} (modelCache) or ${DEFAULT_MOUNT_PATHS.compilationCache} (compilationCache), required for custom.`, {
      maxLength: MAX_MOUNT_PATH_LENGTH,
      ...words(MOUNT_PATH_PATTERN),
    }),
    name: str('Name of the volume in the pods (a DNS label), unique among the volumes.', { maxLength: MAX_DNS_LABEL_LENGTH, ...words(DNS_LABEL_PATTERN) }),
    purpose: enumOf(VOLUME_PURPOSES, 'modelCache (the engine downloads weights into it, HF_HOME), compilationCache, or custom (mounted only).', { default: 'custom' }),
    readOnly: bool('Mount the volume read-only (a cache filled beforehand).'),
    size: str('Size of a claim the controller creates (a Kubernetes quantity such as 100Gi); absent for an existing claim.', { maxLength: 64, ...words(SIZE_PATTERN) }),
    storageClassName: str('StorageClass of the claim the controller creates: absent for the cluster default class, "" for none; only with size.', {
      maxLength: MAX_OBJECT_NAME_LENGTH,
      ...words(STORAGE_CLASS_PATTERN),
    }),
  },
  { required: ['name'], 'x-kubernetes-validations': volumeRules, rulePhrases: true },
);

export const modelStorageSchema = object(
  'Persistent volumes for the model pods: a model cache (weights are downloaded once and reused), a compilation cache, or any claim.',
  {
    volumes: listOf(`Volumes, at most ${MAX_STORAGE_VOLUMES}, keyed by name.`, volumeSchema, {
      maxItems: MAX_STORAGE_VOLUMES,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    }),
  },
  { 'x-kubernetes-validations': storageRules, rulePhrases: true },
);

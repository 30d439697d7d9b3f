// A provider resource the API server will not take because of what it holds: found before applying by
// checking it against the installed CRD's schema (which also names the exact field, where the API
// server's own answer to a server-side apply is an HTTP 500 that cannot be told from an outage), or
// refused by the API server itself (422 Invalid: CEL rules, bounds; 400: strict decoding). Either way
// it is the deployment's answer, not an outage: `ResourceCreated=False` with reason `ResourceRefused`,
// phase `Failed` with the same message, one Warning event `ResourceRefused` (see docs/status.md).

import { EventReason } from '../../api/constants.ts';
import { checkAgainstSchema, describeProblems, schemaOfVersion } from '../../kube/schema-check.ts';
import type { KubernetesObject } from '../../providers/contract.ts';

/** Condition reason (ResourceCreated=False) and event reason of a refused provider resource. */
export const RESOURCE_REFUSED = EventReason.ResourceRefused;

/** The version part of an apiVersion: `v1beta1` of `nvidia.com/v1beta1`. */
function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

/**
 * Why the installed CRD would refuse `obj` (undefined when its schema takes it, or has no schema for
 * the version: the API server decides then). The message names the object, the CRD version and the fields.
 */
export function schemaRefusal(obj: KubernetesObject, crd: unknown): string | undefined {
  const schema = schemaOfVersion(crd, versionOf(obj.apiVersion));
  if (!schema) return undefined;
  const problems = checkAgainstSchema(obj, schema);
  if (problems.length === 0) return undefined;
  const crdName = (crd as { metadata?: { name?: string } }).metadata?.name ?? obj.kind;
  return `${obj.kind} '${obj.metadata.name}' does not fit the installed CRD ${crdName} (${obj.apiVersion}): ${describeProblems(problems)}`;
}

/** The API server's own refusal of `obj`, in its words (they name the field). */
export function apiRefusal(obj: KubernetesObject, detail: string): string {
  return `The API server refused ${obj.kind} '${obj.metadata.name}': ${detail}`;
}

// Which version the stack's DynamoGraphDeployment CRD stores while a subject is measured. Upstream the
// Dynamo operator's webhook converts between v1beta1 and v1alpha1; the bench's stack has no such
// webhook (conversion None), so a controller's objects keep their fields only when the CRD stores the
// version that controller writes. Each subject says which one it speaks, and the CRD is switched to it
// before that subject starts (they are measured one after the other, never together).
import { withoutConversionWebhook } from '../../devstack/upstream-crds.ts';
import type { CustomObjects } from '../../kube/custom-objects.ts';
import { CRDS, versionOfCrd } from '../../providers/crd-version.ts';
import { dynamoProvider } from '../../providers/index.ts';

export const DGD_CRD = { ...CRDS, name: `${dynamoProvider.resource.plural}.${dynamoProvider.resource.group}` };

/** The Dynamo version ours writes on this CRD: what its Dynamo provider renders for it. */
export function oursDynamoVersion(crd: unknown): string {
  const choice = versionOfCrd(dynamoProvider.resource, crd);
  if (!choice) throw new Error(`the stack's CRD ${DGD_CRD.name} is missing or not Established`);
  if ('error' in choice) throw new Error(choice.error);
  return choice.apiVersion.slice(choice.apiVersion.indexOf('/') + 1);
}

/** Makes the CRD store `version` (the others stay served; conversion None). */
export async function storeDynamoAs(objects: CustomObjects, version: string): Promise<void> {
  const crd = await objects.get(DGD_CRD);
  if (!crd) throw new Error(`the stack has no CRD ${DGD_CRD.name}`);
  const changed = withoutConversionWebhook(crd, { storage: version });
  // The spec as read with the storage flags moved: a merge patch replaces its versions list whole.
  await objects.mergePatch(DGD_CRD, { spec: changed.spec });
}

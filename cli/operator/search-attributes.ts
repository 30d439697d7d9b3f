// Registers the deployment search attributes (MdNamespace, MdName, MdProvider, MdPhase) on an existing
// Temporal server before the controller starts workflows that set them. The local stack registers them
// itself; a shared server or Temporal Cloud may need an administrator instead, so failure is reported,
// not fatal.

import type { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../../workflows/engine/search-attributes.ts';

// temporal.api.enums.v1.IndexedValueType; every deployment attribute is a Keyword.
const KEYWORD = 2;

/** The attribute names that were missing and are now registered. */
export async function ensureDeploymentSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = SEARCH_ATTRIBUTES.map((k) => k.name).filter((name) => !known.has(name));
  if (missing.length > 0) {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])) });
  }
  return missing;
}

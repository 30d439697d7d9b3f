// Registers the product's search attributes on an existing Temporal server before the controller starts
// workflows that set them. The local stack's server is created with them; a shared server or Temporal
// Cloud may need an administrator instead, so failing to register is reported, not fatal. Failing to
// connect is fatal: the controller could not run against that server either.

import { Connection, type ConnectionOptions } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../workflows/engine/search-attributes.ts';
import type { RecordLog } from './parts.ts';

// temporal.api.enums.v1.IndexedValueType; every attribute is a Keyword.
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

/** Connects (throwing when the server cannot be reached), registers what is missing, and says what it did. */
export async function registerSearchAttributes(temporal: { address: string; namespace: string; connection?: Omit<ConnectionOptions, 'address'> }, log: RecordLog): Promise<void> {
  const connection = await Connection.connect({ ...temporal.connection, address: temporal.address, connectTimeout: '10s' });
  try {
    const added = await ensureDeploymentSearchAttributes(connection, temporal.namespace);
    if (added.length > 0) log.info({ added }, 'registered search attributes');
  } catch (err) {
    log.warn(
      { err: firstLine((err as Error).message) },
      `could not register the search attributes ${SEARCH_ATTRIBUTES.map((k) => k.name).join(', ')} (Keyword); an administrator must add them to the Temporal namespace`,
    );
  } finally {
    await connection.close();
  }
}

/** The first line without its trailing period, as the CLI shows causes. */
function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/[.\s]+$/, '');
}

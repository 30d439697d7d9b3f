import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from '../workflows/engine/search-attributes.ts';
import { inNetns } from './cluster/network.ts';
import { freePort } from './ports.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

export interface TemporalServer {
  process: ManagedProcess;
  /** gRPC frontend, host:port. */
  address: string;
  /** Web UI URL, when the UI runs. */
  uiUrl: string | undefined;
  namespace: string;
}

export interface TemporalOptions {
  /** Serve the Web UI (the embedded run); tests run headless. */
  ui?: boolean;
  /** Keep history in this SQLite file across restarts; in memory when omitted. */
  dbFile?: string;
  /** Preferred ports (the embedded run keeps its UI address stable); free ones are picked otherwise. */
  port?: number;
  uiPort?: number;
  /** The server's HTTP API and metrics ports; fixed by a supervisor so a restarted server keeps them. */
  httpPort?: number;
  metricsPort?: number;
  /**
   * The cluster mode: run inside the stack's network namespace, the frontend on every address there, so
   * pods reach it at the node's address (through a Service); the host reaches it through the relay.
   */
  netns?: string;
}

// The SDK's enum names the server's wire values; the dev server's flag wants the short type name.
const FLAG_TYPE: Record<string, string> = { KEYWORD: 'Keyword', TEXT: 'Text', INT: 'Int', DOUBLE: 'Double', BOOL: 'Bool', DATETIME: 'Datetime', KEYWORD_LIST: 'KeywordList' };

export async function startTemporal(bin: string, stateDir: string, opts: TemporalOptions = {}): Promise<TemporalServer> {
  const port = opts.port ?? (await freePort());
  const namespace = 'default';
  const args = ['server', 'start-dev', '--ip', opts.netns ? '0.0.0.0' : '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--namespace', namespace];
  let uiUrl: string | undefined;
  if (opts.ui) {
    const uiPort = opts.uiPort ?? (await freePort());
    args.push('--ui-ip', '127.0.0.1', '--ui-port', String(uiPort));
    uiUrl = `http://127.0.0.1:${uiPort}`;
  } else {
    args.push('--headless');
  }
  args.push('--http-port', String(opts.httpPort ?? (await freePort())), '--metrics-port', String(opts.metricsPort ?? (await freePort())));
  const freshDatabase = !opts.dbFile || !existsSync(opts.dbFile);
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  for (const key of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${key.name}=${FLAG_TYPE[key.type]}`);
  // The dev server re-reads the search attribute definitions from its database on every use (so that
  // attributes added at run time are seen at once): ~5 % of its CPU in a burst of 1,000 deployments. A
  // fresh database has every attribute above before the server serves, so its cache may keep them; a
  // reused one may get some added by `ensureSearchAttributes` after the server started.
  if (freshDatabase) args.push('--dynamic-config-value', 'system.forceSearchAttributesCacheRefreshOnRead=false');
  // Entity workflows continue-as-new when the server suggests it; a low threshold keeps histories short.
  args.push('--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=2000');
  // One matching host serves every task queue here: a single partition per queue, so a task never waits
  // in a partition no poller is on (the default of 4 is for clusters with many workers).
  args.push('--dynamic-config-value', 'matching.numTaskqueueReadPartitions=1', '--dynamic-config-value', 'matching.numTaskqueueWritePartitions=1');
  const proc = startProcess('temporal', ...inNetns(opts.netns, bin, args), join(stateDir, 'temporal.log'));
  const address = `127.0.0.1:${port}`;
  await waitUntil(proc, 'serving', 120_000, async () => {
    const connection = await Connection.connect({ address, connectTimeout: 2_000 });
    try {
      await connection.workflowService.getSystemInfo({});
      return true;
    } finally {
      await connection.close();
    }
  });
  await ensureSearchAttributes(address, namespace);
  return { process: proc, address, uiUrl, namespace };
}

/**
 * A reused database keeps the attributes it was created with; attributes added to the product since
 * are registered here, so an existing server (or an old dev database) works too.
 */
export async function ensureSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = new Set(Object.keys(existing.customAttributes ?? {}));
    const missing = SEARCH_ATTRIBUTES.filter((k) => !known.has(k.name));
    if (missing.length === 0) return;
    await addSearchAttributes(connection, namespace, missing);
  } finally {
    await connection.close();
  }
}

/** Registers search attributes (all the product's unless told): the test server has no list to ask first, but adds what it already has. */
export async function addSearchAttributes(connection: Connection, namespace: string, keys: readonly { name: string; type: string }[] = SEARCH_ATTRIBUTES): Promise<void> {
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(keys.map((k) => [k.name, indexedValueType(k.type)])),
  });
}

function indexedValueType(type: string): number {
  // temporal.api.enums.v1.IndexedValueType
  const values: Record<string, number> = { TEXT: 1, KEYWORD: 2, INT: 3, DOUBLE: 4, BOOL: 5, DATETIME: 6, KEYWORD_LIST: 7 };
  return values[type] ?? 2;
}

// Temporal connection options from the command-line flags: plain gRPC by default, TLS when any TLS
// flag or an API key is given. Kept free of the SDK so it is tested on its own.

import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { TemporalOptions } from './connection-options.ts';

export interface TemporalTls {
  serverNameOverride?: string;
  serverRootCACertificate?: Buffer;
  clientCertPair?: { crt: Buffer; key: Buffer };
}

export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  tls?: TemporalTls | boolean;
  apiKey?: string;
}

export async function temporalConnectionSettings(opts: TemporalOptions, io: Pick<CliIO, 'readFile'>): Promise<TemporalConnectionSettings> {
  if (Boolean(opts.temporalTlsCert) !== Boolean(opts.temporalTlsKey)) {
    throw new CliError('--temporal-tls-cert and --temporal-tls-key go together (a client certificate needs its key).');
  }
  const read = async (path: string, what: string) => {
    try {
      return Buffer.from(await io.readFile(path), 'utf8');
    } catch (err) {
      throw new CliError(`Cannot read the ${what} ${path}: ${(err as Error).message}.`);
    }
  };
  const tls: TemporalTls = {};
  if (opts.temporalTlsServerName) tls.serverNameOverride = opts.temporalTlsServerName;
  if (opts.temporalTlsCa) tls.serverRootCACertificate = await read(opts.temporalTlsCa, 'Temporal CA certificate');
  if (opts.temporalTlsCert && opts.temporalTlsKey) {
    tls.clientCertPair = { crt: await read(opts.temporalTlsCert, 'Temporal client certificate'), key: await read(opts.temporalTlsKey, 'Temporal client key') };
  }
  const wantsTls = Boolean(opts.temporalTls || opts.temporalApiKey || Object.keys(tls).length > 0);
  return {
    address: opts.temporalAddress,
    namespace: opts.temporalNamespace,
    ...(wantsTls ? { tls: Object.keys(tls).length > 0 ? tls : true } : {}),
    ...(opts.temporalApiKey ? { apiKey: opts.temporalApiKey } : {}),
  };
}

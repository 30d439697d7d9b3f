// A small Temporal reader for `status`: the two calls it makes (DescribeWorkflowExecution, and
// QueryWorkflow for the `view` query) as plain gRPC over Node's own HTTP/2, with the few protobuf
// fields they need. The Temporal SDK's client costs about 0.3 s of CPU to load (all of the API's
// generated protobuf code), which alone would make `status` slower than kubectl. Connection settings
// (TLS, client certificate, API key) are the same as the SDK client's (temporal-connection.ts).

import { connect, type ClientHttp2Session, type SecureClientSessionOptions } from 'node:http2';
import { decode, encode, bytesField, mapField, messageField, varintField, type Decoded } from './protowire.ts';
import type { TemporalConnectionSettings } from './temporal-connection.ts';
import type { WorkflowDescription, WorkflowReader } from '../../present/workflow-state.ts';

const SERVICE = '/temporal.api.workflowservice.v1.WorkflowService';

/** temporal.api.enums.v1.WorkflowExecutionStatus, as the SDK names them. */
const STATUS_NAMES = ['UNSPECIFIED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'CONTINUED_AS_NEW', 'TIMED_OUT', 'PAUSED'];

/** A gRPC call that ended with a status other than OK. */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const GRPC_NOT_FOUND = 5;

export interface LightTemporal extends WorkflowReader {
  close(): Promise<void>;
}

/** Connects (HTTP/2 handshake, TLS if asked) within `timeoutMs`, or fails saying why. */
export async function openLightTemporal(settings: TemporalConnectionSettings, timeoutMs = 5_000): Promise<LightTemporal> {
  const tls = settings.tls;
  const options: SecureClientSessionOptions = {};
  if (tls && typeof tls === 'object') {
    if (tls.serverRootCACertificate) options.ca = tls.serverRootCACertificate;
    if (tls.clientCertPair) {
      options.cert = tls.clientCertPair.crt;
      options.key = tls.clientCertPair.key;
    }
    if (tls.serverNameOverride) options.servername = tls.serverNameOverride;
  }
  const session = connect(`${tls ? 'https' : 'http'}://${settings.address}`, options);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no connection within ${timeoutMs / 1000}s`));
    }, timeoutMs);
    session.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    session.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  session.on('error', () => {});
  // The namespace header lets a server that authorizes per namespace (Temporal Cloud's API keys) route the call.
  const metadata: Record<string, string> = { 'temporal-namespace': settings.namespace, ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) };
  const execution = (workflowId: string) => encode([[1, workflowId]]);
  const namespace = settings.namespace;
  return {
    async describe(workflowId) {
      let reply: Decoded;
      try {
        reply = await unary(session, 'DescribeWorkflowExecution', encode([[1, namespace], [2, execution(workflowId)]]), metadata, 10_000);
      } catch (err) {
        if (err instanceof GrpcError && err.code === GRPC_NOT_FOUND) return undefined;
        throw err;
      }
      const info = messageField(reply, 2) ?? new Map();
      return describeInfo(info);
    },
    async queryView(workflowId, timeoutMs) {
      const query = encode([[1, 'view']]);
      const reply = await unary(session, 'QueryWorkflow', encode([[1, namespace], [2, execution(workflowId)], [3, query]]), metadata, timeoutMs);
      const rejected = messageField(reply, 2);
      if (rejected) throw new Error(`query rejected: the workflow is ${STATUS_NAMES[varintField(rejected, 1) ?? 0]}`);
      const payloads = messageField(reply, 1);
      const first = payloads?.get(1)?.[0];
      return Buffer.isBuffer(first) ? payloadValue(first) : undefined;
    },
    close: () => closeWithin(session, 1_000),
  };
}

/**
 * A graceful close waits for the server's part of the goodbye; a server that stopped answering
 * (SIGSTOPped, a dead peer behind a live load balancer) never gives it, and the open socket would keep
 * the command's process alive after it has answered. After `graceMs` the session is destroyed.
 */
function closeWithin(session: ClientHttp2Session, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      session.destroy();
      resolve();
    }, graceMs);
    session.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** temporal.api.workflow.v1.WorkflowExecutionInfo: status = 5, memo = 10 (fields = 1), search_attributes = 11 (indexed_fields = 1). */
function describeInfo(info: Decoded): WorkflowDescription {
  const decodeMap = (m: Decoded | undefined) => Object.fromEntries([...(m ? mapField(m, 1) : [])].map(([k, v]) => [k, payloadValue(v)]));
  return {
    status: STATUS_NAMES[varintField(info, 5) ?? 0] ?? 'UNSPECIFIED',
    memo: decodeMap(messageField(info, 10)),
    searchAttributes: decodeMap(messageField(info, 11)),
  };
}

/** temporal.api.common.v1.Payload (metadata = 1, data = 2) as the SDK's default converter reads it. */
function payloadValue(bytes: Buffer): unknown {
  const payload = decode(bytes);
  const encoding = mapField(payload, 1).get('encoding')?.toString('utf8');
  const data = bytesField(payload, 2) ?? Buffer.alloc(0);
  if (encoding === 'json/plain') return JSON.parse(data.toString('utf8'));
  if (encoding === 'binary/null') return null;
  return undefined;
}

/** One unary gRPC call: length-prefixed request, response and the status in the trailers. */
function unary(session: ClientHttp2Session, method: string, message: Buffer, metadata: Record<string, string>, timeoutMs: number): Promise<Decoded> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ':method': 'POST',
      ':path': `${SERVICE}/${method}`,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
      ...metadata,
    });
    const timer = setTimeout(() => {
      req.close();
      reject(new GrpcError(4, `no answer within ${timeoutMs / 1000}s`));
    }, timeoutMs + 500);
    const chunks: Buffer[] = [];
    let status: number | undefined;
    let statusMessage = '';
    const takeStatus = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] === undefined) return;
      status = Number(headers['grpc-status']);
      statusMessage = decodeURIComponent(String(headers['grpc-message'] ?? ''));
    };
    req.on('response', takeStatus);
    req.on('trailers', takeStatus);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (status !== 0) {
        reject(new GrpcError(status ?? 2, statusMessage || `${method} failed (no gRPC status)`));
        return;
      }
      const body = Buffer.concat(chunks);
      // One message: a compression flag byte, a 4-byte length, the message.
      if (body.length < 5 || body[0] !== 0) {
        reject(new Error(`${method}: unexpected response framing`));
        return;
      }
      resolve(decode(body.subarray(5, 5 + body.readUInt32BE(1))));
    });
    const frame = Buffer.alloc(5);
    frame.writeUInt32BE(message.length, 1);
    req.end(Buffer.concat([frame, message]));
  });
}

import { EventEmitter } from 'node:events';
import type { CallOptions, Connection, ServiceName } from '../connection.ts';
import { classifyContainerdError } from '../errors.ts';

// A stand-in for Connection in unit tests: records every call (service, method, request, lease) and
// answers from handlers; a handler that throws a gRPC-shaped error fails the call as containerd would.

export interface RecordedCall {
  call: string;
  request: Record<string, unknown>;
  lease: string | undefined;
}

type Handler = (request: Record<string, unknown>) => unknown;

export const grpcError = (code: number, details: string) => Object.assign(new Error(`${code}: ${details}`), { code, details });

export class FakeConnection {
  readonly namespace = 'k8s.io';
  readonly socket = '/fake.sock';
  readonly calls: RecordedCall[] = [];
  readonly blobs = new Map<string, Buffer>();

  constructor(private readonly handlers: Record<string, Handler> = {}) {}

  /** The calls as `service.Method` names, in order. */
  get names(): string[] {
    return this.calls.map((c) => c.call);
  }

  private answer(service: ServiceName, method: string, request: object, opts: CallOptions): unknown {
    const call = `${service}.${method}`;
    this.calls.push({ call, request: request as Record<string, unknown>, lease: opts.lease });
    const handler = this.handlers[call];
    try {
      return handler ? handler(request as Record<string, unknown>) : {};
    } catch (err) {
      throw classifyContainerdError(err, opts.operation);
    }
  }

  async unary<Res>(service: ServiceName, method: string, request: object, opts: CallOptions = {}): Promise<Res> {
    return this.answer(service, method, request, opts) as Res;
  }

  async serverStream<Res>(service: ServiceName, method: string, request: object, opts: CallOptions = {}): Promise<Res[]> {
    return this.answer(service, method, request, opts) as Res[];
  }

  /** Content.Write: one message in, one answer out (as writeBlob uses it); the blob is kept by digest. */
  duplex(service: ServiceName, method: string, opts: CallOptions = {}): EventEmitter & { write(m: unknown): void; end(): void } {
    const stream = new EventEmitter() as EventEmitter & { write(m: unknown): void; end(): void };
    stream.write = (message: unknown) => {
      const m = message as { expected: string; data: Buffer };
      this.blobs.set(m.expected, m.data);
      setImmediate(() => {
        try {
          const res = this.answer(service, method, message as object, opts);
          stream.emit('data', { digest: m.expected, ...(res as object) });
        } catch (err) {
          stream.emit('error', err);
        }
      });
    };
    stream.end = () => setImmediate(() => stream.emit('end'));
    return stream;
  }

  close(): void {}

  as(): Connection {
    return this as unknown as Connection;
  }
}

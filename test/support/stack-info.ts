/** What the global setup hands to integration tests about the shared local stack. */
export interface StackInfo {
  kubeconfigPath: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The stack's RabbitMQ, `amqp://guest:guest@127.0.0.1:<port>`. */
  amqpUrl: string;
  stateDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

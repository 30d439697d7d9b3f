/** A Temporal server the tests may use: the shared stack's, or the workflow tests' own. */
export interface TemporalInfo {
  temporalAddress: string;
  temporalNamespace: string;
}

/** What the global setup hands to integration tests about the shared local stack. */
export interface StackInfo extends TemporalInfo {
  kubeconfigPath: string;
  /** The stack's RabbitMQ, `amqp://guest:guest@127.0.0.1:<port>`. */
  amqpUrl: string;
  stateDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    /** The workflow tests' time-skipping test servers, one per vitest worker (`VITEST_POOL_ID` 1..n). */
    temporalTestServers: TemporalInfo[];
  }
}

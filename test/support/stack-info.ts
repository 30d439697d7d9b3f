/** What the global setup hands to integration tests about the shared local stack. */
export interface StackInfo {
  kubeconfigPath: string;
  temporalAddress: string;
  temporalNamespace: string;
  stateDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

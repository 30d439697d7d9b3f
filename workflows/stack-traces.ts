/**
 * Workflow code captures no stack traces. For the Temporal UI's stack trace view, the SDK records a
 * stack for every promise a workflow creates (a promise hook builds an Error and maps each frame
 * through the bundle's source map) and keeps it while the promise is pending. A reconcile pass creates
 * hundreds of promises: in a burst, that was close to half of the workflow thread's time, and it made
 * every workflow in the cache bigger. Operators do not need the view here: each step of a reconcile is
 * in history, and the `view` query says where a workflow waits and why.
 *
 * With a limit of 0, V8 captures no frames: the hook still runs, but finds nothing to map. The module
 * is preloaded (worker/workflow-code.ts), so this runs once per V8 context, whose own Error it sets.
 */
Error.stackTraceLimit = 0;

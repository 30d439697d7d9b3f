/**
 * Workflow code captures no stack traces. The SDK's promise hook, which recorded a stack for every
 * promise a workflow creates (for the Temporal UI's stack trace view), is left out of the workflow
 * threads (worker/workflow-thread.ts); what remains are the errors workflow code creates (cancellations,
 * failures to report), each of which would have V8 capture and format its frames. Operators do not need
 * them: each step of a reconcile is in history, and the `view` query says where a workflow waits and why.
 *
 * With a limit of 0, V8 captures no frames. The module is preloaded (worker/workflow-code.ts), so this
 * runs once per V8 context, whose own Error it sets.
 */
Error.stackTraceLimit = 0;

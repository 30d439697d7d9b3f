// Metrics and logs of every reconciliation step, recorded around the activities by a Temporal activity
// interceptor: the workflow stays free of observability code, and every activity, core or provider,
// is covered the same way. Each activity's first argument is the ObjectRef, which gives the logs
// their namespace and name; the activity context gives the workflow ID.

import type { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityExecuteInput, ActivityInterceptorsFactory, Next, ActivityInboundCallsInterceptor } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { ControllerMetrics } from './metrics.ts';
import { BoundedMap } from '../kube/bounded-map.ts';
import { stepOutcome, type StepOutcomeReaders } from './step-outcome.ts';
import { splitActivityType } from '../workflows/model-deployment/settings.ts';
import { messageOf } from '../contract/failure-types.ts';

export interface StepObserverOptions {
  /** What each activity's result means (kinds/index.ts STEP_OUTCOMES). */
  outcomes: StepOutcomeReaders;
  metrics?: ControllerMetrics;
  logger?: Logger;
  /** The provider whose task queue the worker serves; undefined on the core worker. */
  provider?: string;
  now?: () => number;
}

/** Label for a failure whose deployment has no provider yet. */
export const NO_PROVIDER = 'none';
const MAX_TRACKED = 10_000;

/** Reads only: logged at debug level, since every resync repeats them. */
const READS = new Set(['readDeployment', 'validateDeployment']);

/** The failure type the workflow will see: the ApplicationFailure type (e.g. `KubeForbidden`), else the error's name. */
export function failureType(err: unknown): string {
  if (err instanceof ApplicationFailure) return err.type ?? 'Error';
  if (err instanceof Error) return err.name || 'Error';
  return 'Error';
}

/** A provider's passes, each one activity: its reconciliation duration is that activity's. */
const PROVIDER_PASSES = new Set(['reconcileResource', 'cleanupResources']);

export function stepObserver(opts: StepObserverOptions): ActivityInterceptorsFactory {
  const now = opts.now ?? (() => performance.now());
  // The core worker learns each deployment's provider from readDeployment/selectProvider results, so
  // its own failures are labelled with the provider too.
  const providerOf = new BoundedMap<string, string>(MAX_TRACKED);

  return (ctx: Context) => ({
    inbound: {
      async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
        const info = ctx.info;
        // A provider served in the core's process (`dynamo:reconcileResource`) is observed as its own worker would be.
        const { provider: inProcess, activity } = splitActivityType(info.activityType);
        const served = opts.provider ?? inProcess;
        const workflowId = info.workflowExecution?.workflowId ?? '';
        const ref = input.args[0] as { namespace?: string; name?: string } | undefined;
        const provider = () => served ?? providerOf.get(workflowId) ?? NO_PROVIDER;
        const log = opts.logger?.child({
          namespace: ref?.namespace,
          name: ref?.name,
          workflowId,
          runId: info.workflowExecution?.runId,
          activity,
          attempt: info.attempt,
          ...(served ? { provider: served } : {}),
        });
        const started = now();

        let result: unknown;
        try {
          result = await next(input);
        } catch (err) {
          const durationMs = Math.round(now() - started);
          if (err instanceof CancelledFailure) {
            log?.info({ durationMs }, `${activity} cancelled`);
            throw err;
          }
          const type = failureType(err);
          opts.metrics?.reconciliationErrors.inc({ provider: provider(), error_type: type });
          log?.warn({ durationMs, errorType: type, err: messageOf(err) }, `${activity} failed`);
          throw err;
        }

        const durationMs = now() - started;
        const outcome = stepOutcome(opts.outcomes, activity, result);
        if (outcome.provider) providerOf.set(workflowId, outcome.provider);
        if (outcome.selected) opts.metrics?.providerSelection.inc({ provider: outcome.selected.provider, reason: outcome.selected.reason });
        if (outcome.errorType) opts.metrics?.reconciliationErrors.inc({ provider: outcome.provider ?? provider(), error_type: outcome.errorType });
        if (served && PROVIDER_PASSES.has(activity)) opts.metrics?.reconciliationDuration.observe({ provider: served }, (now() - started) / 1000);
        if (log) {
          const fields = { durationMs: Math.round(durationMs), ...outcome.fields };
          if (READS.has(activity) && !outcome.errorType) log.debug(fields, `${activity} done`);
          else if (outcome.errorType) log.warn({ ...fields, errorType: outcome.errorType }, `${activity}: ${outcome.summary}`);
          else log.info(fields, `${activity}${outcome.summary ? `: ${outcome.summary}` : ' done'}`);
        }
        return result;
      },
    },
  });
}

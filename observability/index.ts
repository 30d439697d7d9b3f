// Public entry of observability/: Prometheus metrics (seed 001 §9), the activity interceptor that
// records them and writes step logs, the metrics endpoint, and the pino logger.

export { failureType, NO_PROVIDER, stepObserver, type StepObserverOptions } from './activity-interceptor.ts';
export { deploymentSamples, phaseOf, type DeploymentSamples } from './deployment-samples.ts';
export { watchDeployments, type DeploymentWatch } from './deployment-watch.ts';
export { createLogger, lineLog, LOG_LEVELS, temporalLogger, type Logger } from './logger.ts';
export { createMetrics, METRIC_NAMES, type ControllerMetrics, type MetricsOptions } from './metrics.ts';
export { startMetricsServer, type MetricsServer } from './metrics-server.ts';
export { stepOutcome, type StepOutcome, type StepOutcomeReader, type StepOutcomeReaders } from './step-outcome.ts';

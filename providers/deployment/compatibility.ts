// `deployment` provider compatibility: engine, mode, GPU/CPU and overrides from its capabilities
// (shared/capability-check.ts), plus what follows from running the engines directly: disaggregated
// prefill/decode is vLLM's (its NIXL KV transfer), and a model that comes with the image (source
// custom) must be named by its path.

import type { ModelDeployment } from '../../api/types.ts';
import type { CompatibilityResult } from '../contract.ts';
import { checkCompatibility } from '../shared/capability-check.ts';
import { DEPLOYMENT_CONFIG, DEPLOYMENT_DISPLAY_NAME } from './config.ts';
import { modelSourceProblem } from './model-source.ts';
import { DEPLOYMENT_OVERRIDE_SCHEMA } from './overrides.ts';

export const deploymentMessages = {
  disaggregatedNeedsVllm: (engine: string): string => `Kubernetes Deployment supports disaggregated serving with the vllm engine only, got ${engine}`,
} as const;

export function deploymentCompatibility(md: ModelDeployment): CompatibilityResult {
  return checkCompatibility(
    md,
    { displayName: DEPLOYMENT_DISPLAY_NAME, config: DEPLOYMENT_CONFIG, overrideSchema: DEPLOYMENT_OVERRIDE_SCHEMA },
    (spec) => {
      const errors: string[] = [];
      if (spec.mode === 'disaggregated' && spec.engine !== undefined && spec.engine !== 'vllm') errors.push(deploymentMessages.disaggregatedNeedsVllm(spec.engine));
      const source = modelSourceProblem(spec);
      if (source) errors.push(source);
      return { errors };
    },
  );
}

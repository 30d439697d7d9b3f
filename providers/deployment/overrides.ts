// Overrides of the `deployment` provider (spec.provider.overrides): the few pod settings the unified
// API has no field for. Unknown keys are warnings and wrong types errors, as for every provider
// (api/overrides.ts); rendering falls back to the defaults for a value it cannot use, so it never fails.

import type { OverrideSchema } from '../../api/overrides.ts';
import { field, quantity } from '../shared/read.ts';
import { DEFAULT_STARTUP_TIMEOUT_SECONDS } from './defaults.ts';

export const DEPLOYMENT_OVERRIDE_SCHEMA: OverrideSchema = {
  type: 'object',
  properties: {
    startupTimeoutSeconds: {
      type: 'integer',
      minimum: 30,
      maximum: 86400,
      description: 'How long the server may take to load the model before Kubernetes restarts it (startup probe)',
      default: DEFAULT_STARTUP_TIMEOUT_SECONDS,
    },
    shmSize: { type: 'quantity', description: 'Size limit of the in-memory /dev/shm volume (vLLM and SGLang)' },
    serviceAccountName: { type: 'string', description: 'ServiceAccount the model pods run as (e.g. one with image pull secrets)' },
    command: {
      type: 'array',
      items: { type: 'string' },
      description: "Replaces the container's entrypoint (llama.cpp: for an image whose entrypoint is not llama-server)",
    },
  },
};

export interface DeploymentSettings {
  startupTimeoutSeconds: number;
  shmSize?: string;
  serviceAccountName?: string;
  command?: string[];
}

export function deploymentSettings(overrides: unknown): DeploymentSettings {
  const timeout = field(overrides, 'startupTimeoutSeconds');
  const account = field(overrides, 'serviceAccountName');
  const command = field(overrides, 'command');
  const shm = quantity(field(overrides, 'shmSize'));
  const validTimeout = typeof timeout === 'number' && Number.isSafeInteger(timeout) && timeout >= 30 && timeout <= 86400;
  const validCommand = Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string');
  return {
    startupTimeoutSeconds: validTimeout ? timeout : DEFAULT_STARTUP_TIMEOUT_SECONDS,
    ...(shm !== undefined ? { shmSize: shm } : {}),
    ...(typeof account === 'string' && account.length > 0 ? { serviceAccountName: account } : {}),
    ...(validCommand ? { command: command as string[] } : {}),
  };
}

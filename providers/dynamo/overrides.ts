// Dynamo overrides (seed 001 §4.15 "Dynamo Overrides"), and the typed reading of them for rendering.
// The compatibility check rejects values of the wrong type; rendering falls back to the defaults for
// anything it cannot use, so it never fails.

import type { OverrideSchema } from '../../api/overrides.ts';
import { field, quantity } from '../shared/read.ts';
import { FRONTEND_DEFAULTS, ROUTER_MODES } from './defaults.ts';

export const DYNAMO_OVERRIDE_SCHEMA: OverrideSchema = {
  type: 'object',
  properties: {
    routerMode: {
      type: 'string',
      enum: ROUTER_MODES,
      description: 'Request routing strategy of the Frontend',
      default: FRONTEND_DEFAULTS.routerMode,
    },
    frontend: {
      type: 'object',
      description: 'The Frontend (router) component',
      properties: {
        replicas: { type: 'integer', minimum: 0, description: 'Number of frontend/router pods', default: FRONTEND_DEFAULTS.replicas },
        resources: {
          type: 'object',
          properties: {
            cpu: { type: 'quantity', description: 'CPU request for frontend', default: FRONTEND_DEFAULTS.cpu },
            memory: { type: 'quantity', description: 'Memory request for frontend', default: FRONTEND_DEFAULTS.memory },
          },
        },
      },
    },
  },
};

export interface FrontendSettings {
  routerMode: string;
  replicas: number;
  cpu: string;
  memory: string;
}

export function frontendSettings(overrides: unknown): FrontendSettings {
  const routerMode = field(overrides, 'routerMode');
  const replicas = field(overrides, 'frontend', 'replicas');
  const cpu = field(overrides, 'frontend', 'resources', 'cpu');
  const memory = field(overrides, 'frontend', 'resources', 'memory');
  return {
    routerMode:
      typeof routerMode === 'string' && (ROUTER_MODES as readonly string[]).includes(routerMode) ? routerMode : FRONTEND_DEFAULTS.routerMode,
    replicas: typeof replicas === 'number' && Number.isSafeInteger(replicas) && replicas >= 0 ? replicas : FRONTEND_DEFAULTS.replicas,
    cpu: quantity(cpu) ?? FRONTEND_DEFAULTS.cpu,
    memory: quantity(memory) ?? FRONTEND_DEFAULTS.memory,
  };
}

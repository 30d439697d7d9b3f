// KubeRay overrides (seed 001 §4.15 "KubeRay Overrides") and their typed reading for rendering.
// Values of the wrong type are compatibility errors; rendering falls back to the defaults for them.

import { isPlainObject } from '../../api/overrides.ts';
import type { OverrideSchema } from '../../api/overrides.ts';
import { field, quantity } from '../shared/read.ts';
import { HEAD_DEFAULTS } from './defaults.ts';

export const KUBERAY_OVERRIDE_SCHEMA: OverrideSchema = {
  type: 'object',
  properties: {
    head: {
      type: 'object',
      description: 'The Ray head node',
      properties: {
        resources: {
          type: 'object',
          properties: {
            cpu: { type: 'quantity', description: 'CPU request for Ray head node', default: HEAD_DEFAULTS.cpu },
            memory: { type: 'quantity', description: 'Memory request for Ray head node', default: HEAD_DEFAULTS.memory },
          },
        },
        rayStartParams: { type: 'map', values: { type: 'string' }, description: 'Ray head start parameters', default: {} },
      },
    },
  },
};

export interface HeadSettings {
  cpu: string;
  memory: string;
  rayStartParams: Record<string, string>;
}

export function headSettings(overrides: unknown): HeadSettings {
  const cpu = field(overrides, 'head', 'resources', 'cpu');
  const memory = field(overrides, 'head', 'resources', 'memory');
  const params = field(overrides, 'head', 'rayStartParams');
  const rayStartParams: Record<string, string> = {};
  if (isPlainObject(params)) {
    for (const [key, value] of Object.entries(params)) if (typeof value === 'string') rayStartParams[key] = value;
  }
  return {
    cpu: quantity(cpu) ?? HEAD_DEFAULTS.cpu,
    memory: quantity(memory) ?? HEAD_DEFAULTS.memory,
    rayStartParams,
  };
}

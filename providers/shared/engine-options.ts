// Engine parameters of seed 001 §15 as one ordered list of options, independent of how a provider
// passes them (command-line flags for Dynamo and llama.cpp, a config map for KAITO, engine kwargs for
// Ray Serve). Order is fixed: served name, context length, trust-remote-code, then engine.args sorted
// by key, so the same spec always yields the same arguments.

import { engineFlagName } from '../../api/engine-args.ts';
import { ValidationMessage } from '../../api/validation-messages.ts';
import type { EngineType } from '../../api/types.ts';
import type { ResolvedSpec } from './spec.ts';

export interface EngineOption {
  /** Flag name without leading dashes, e.g. `max-model-len`. */
  key: string;
  /** undefined for a bare flag (`--trust-remote-code`). */
  value?: string;
  /** Where the option comes from, for messages. */
  origin: 'servedName' | 'contextLength' | 'trustRemoteCode' | 'args';
}

export interface EngineOptions {
  options: EngineOption[];
  warnings: string[];
}

const CONTEXT_LENGTH_FLAG: Partial<Record<EngineType, string>> = {
  vllm: 'max-model-len',
  sglang: 'context-length',
  llamacpp: 'ctx-size',
};

const SERVED_NAME_FLAG: Partial<Record<EngineType, string>> = {
  vllm: 'served-model-name',
  sglang: 'served-model-name',
  trtllm: 'served-model-name',
  llamacpp: 'alias',
};

const TRUSTS_REMOTE_CODE: ReadonlySet<EngineType> = new Set(['vllm', 'sglang']);

const ENGINE_DISPLAY_NAME: Record<EngineType, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
  llamacpp: 'llama.cpp',
};

/**
 * @param reserved flags the provider sets itself (e.g. `model`); engine.args may not replace them.
 */
export function engineOptions(spec: ResolvedSpec, engine: EngineType, reserved: readonly string[] = []): EngineOptions {
  const managed: EngineOption[] = [];
  const warnings: string[] = [];

  const servedFlag = SERVED_NAME_FLAG[engine];
  if (spec.servedName !== undefined && servedFlag) {
    managed.push({ key: servedFlag, value: spec.servedName, origin: 'servedName' });
  }

  if (spec.contextLength !== undefined) {
    const flag = CONTEXT_LENGTH_FLAG[engine];
    if (flag) managed.push({ key: flag, value: String(spec.contextLength), origin: 'contextLength' });
    else warnings.push(ValidationMessage.contextLengthIgnoredForTrtllm);
  }

  if (spec.trustRemoteCode) {
    if (TRUSTS_REMOTE_CODE.has(engine)) managed.push({ key: 'trust-remote-code', origin: 'trustRemoteCode' });
    else warnings.push(ValidationMessage.trustRemoteCodeNotApplicable(ENGINE_DISPLAY_NAME[engine]));
  }

  const fromArgs: EngineOption[] = [];
  for (const [rawKey, value] of spec.args) {
    const key = engineFlagName(rawKey);
    if (key === undefined) {
      warnings.push(ValidationMessage.engineArgKeyInvalid(rawKey));
      continue;
    }
    if (reserved.includes(key)) {
      warnings.push(`engine.args.${key} is set by the provider and is ignored`);
      continue;
    }
    if (fromArgs.some((o) => o.key === key)) {
      warnings.push(`engine.args.${rawKey} repeats flag --${key} and is ignored`);
      continue;
    }
    fromArgs.push({ key, value, origin: 'args' });
  }

  // An explicit engine.args entry is the user's last word on a flag the unified fields also set.
  const options = managed.filter((m) => {
    const replaced = fromArgs.some((a) => a.key === m.key);
    if (replaced) warnings.push(`engine.args.${m.key} takes precedence over the value derived from ${describeOrigin(m.origin)}`);
    return !replaced;
  });
  options.push(...fromArgs);
  return { options, warnings };
}

/**
 * Command-line form: `--key value`. An args value of "" or "true" is a bare flag, "false" leaves the
 * flag out (the engine default applies), anything else is passed as the flag's value.
 */
export function toArgv(options: readonly EngineOption[]): string[] {
  const argv: string[] = [];
  for (const { key, value } of options) {
    if (value === undefined || value === '' || value === 'true') argv.push(`--${key}`);
    else if (value === 'false') continue;
    else argv.push(`--${key}`, value);
  }
  return argv;
}

/** Typed value for configuration files and kwargs: numbers and booleans become JSON numbers and booleans. */
export function typedValue(value: string | undefined): string | number | boolean {
  if (value === undefined || value === '' || value === 'true') return true;
  if (value === 'false') return false;
  if (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)) {
    const n = Number(value);
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  return value;
}

function describeOrigin(origin: EngineOption['origin']): string {
  switch (origin) {
    case 'servedName':
      return 'model.servedName';
    case 'contextLength':
      return 'engine.contextLength';
    case 'trustRemoteCode':
      return 'engine.trustRemoteCode';
    case 'args':
      return 'engine.args';
  }
}

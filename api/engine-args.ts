// What makes an engine.args key a flag: the providers pass each key as `--key` (Dynamo, llama.cpp) or as
// a config or kwargs key (KAITO, Ray Serve), so a key that is not a flag name is dropped there. Validation
// (admission, `kar validate`, reconcile) warns about the same keys, in the same words.

const FLAG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The flag an engine.args key stands for (leading dashes dropped), or undefined when it is not a flag name. */
export function engineFlagName(rawKey: string): string | undefined {
  const key = rawKey.replace(/^-+/, '');
  return FLAG_NAME.test(key) ? key : undefined;
}

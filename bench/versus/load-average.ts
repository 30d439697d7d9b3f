// The machine's 1-minute load average while a controller is measured. Both controllers run on the
// same shared cores, one after the other; a busier machine during one of them skews the ratios, and
// this says when that happened.
import { readFileSync } from 'node:fs';

export interface LoadSampler {
  /** Mean of the samples taken so far (undefined before the first). */
  stop(): number | undefined;
}

const loadNow = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export function sampleLoadAverage(everyMs = 5_000): LoadSampler {
  const samples = [loadNow()];
  const timer = setInterval(() => samples.push(loadNow()), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push(loadNow());
      return samples.reduce((a, b) => a + b, 0) / samples.length;
    },
  };
}

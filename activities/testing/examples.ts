import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { AnyObject } from '../../kube/custom-objects.ts';

/** The first object of one of examples/*.yaml: the tests start from what a user would apply. */
export function example(file: string): AnyObject {
  const text = readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8');
  return parse(text.split(/^---$/m)[0]!);
}

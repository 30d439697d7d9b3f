import { productRoot } from '../worker/product-root.ts';

/** The checkout this CLI runs from (examples and CRD files are read from it), from the sources or dist/ alike. */
export function repoRoot(): string {
  return productRoot();
}

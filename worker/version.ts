import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { productRoot } from './product-root.ts';

/** The product version, from package.json (one source of truth). */
export const PRODUCT_VERSION: string = (JSON.parse(readFileSync(join(productRoot(), 'package.json'), 'utf8')) as { version: string }).version;

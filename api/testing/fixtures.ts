// Specs for tests: the seed's examples (§4.2), kept in api/seed-examples.ts (the conformance command
// renders them too, so they ship with the product).

export { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../seed-examples.ts';

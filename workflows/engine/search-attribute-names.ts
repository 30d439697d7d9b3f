// The custom search attributes' names, as plain strings: for code that only writes queries with them
// (the CLI's Temporal UI links), which then need not load the SDK's key objects (search-attributes.ts).
export const SEARCH_ATTRIBUTE_NAMES = {
  Kind: 'Kind',
  K8sNamespace: 'K8sNamespace',
  K8sName: 'K8sName',
  K8sPhase: 'K8sPhase',
  MdNamespace: 'MdNamespace',
  MdName: 'MdName',
  MdProvider: 'MdProvider',
  MdPhase: 'MdPhase',
} as const;

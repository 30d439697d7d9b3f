import type { defineSearchAttributeKey } from '@temporalio/common';
import { SEARCH_ATTRIBUTE_NAMES as N } from './search-attribute-names.ts';

/**
 * What the SDK's `defineSearchAttributeKey(name, SearchAttributeType.KEYWORD)` returns, `{ name, type }`,
 * built here: loading @temporalio/common for it costs every CLI call (the kinds' registrations import
 * these keys) about 75 ms of CPU.
 */
const keyword = (name: string): ReturnType<typeof defineSearchAttributeKey<'KEYWORD'>> => ({ name, type: 'KEYWORD' });

// The custom search attributes that make the Temporal UI a history browser of every object, e.g.
//   Kind = "FlameCluster" AND K8sNamespace = "team-a" AND K8sPhase = "Failed"
// ModelDeployments keep their own (Md*), which histories recorded before other kinds existed carry:
//   MdNamespace = "team-a" AND MdPhase = "Failed"
export const Kind = keyword(N.Kind);
export const K8sNamespace = keyword(N.K8sNamespace);
export const K8sName = keyword(N.K8sName);
export const K8sPhase = keyword(N.K8sPhase);
export const MdNamespace = keyword(N.MdNamespace);
export const MdName = keyword(N.MdName);
export const MdProvider = keyword(N.MdProvider);
export const MdPhase = keyword(N.MdPhase);

export const SEARCH_ATTRIBUTES = [Kind, K8sNamespace, K8sName, K8sPhase, MdNamespace, MdName, MdProvider, MdPhase] as const;

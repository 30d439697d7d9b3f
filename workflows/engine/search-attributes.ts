import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { SEARCH_ATTRIBUTE_NAMES as N } from './search-attribute-names.ts';

// The custom search attributes that make the Temporal UI a history browser of every object, e.g.
//   Kind = "FlameCluster" AND K8sNamespace = "team-a" AND K8sPhase = "Failed"
// ModelDeployments keep their own (Md*), which histories recorded before other kinds existed carry:
//   MdNamespace = "team-a" AND MdPhase = "Failed"
export const Kind = defineSearchAttributeKey(N.Kind, SearchAttributeType.KEYWORD);
export const K8sNamespace = defineSearchAttributeKey(N.K8sNamespace, SearchAttributeType.KEYWORD);
export const K8sName = defineSearchAttributeKey(N.K8sName, SearchAttributeType.KEYWORD);
export const K8sPhase = defineSearchAttributeKey(N.K8sPhase, SearchAttributeType.KEYWORD);
export const MdNamespace = defineSearchAttributeKey(N.MdNamespace, SearchAttributeType.KEYWORD);
export const MdName = defineSearchAttributeKey(N.MdName, SearchAttributeType.KEYWORD);
export const MdProvider = defineSearchAttributeKey(N.MdProvider, SearchAttributeType.KEYWORD);
export const MdPhase = defineSearchAttributeKey(N.MdPhase, SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [Kind, K8sNamespace, K8sName, K8sPhase, MdNamespace, MdName, MdProvider, MdPhase] as const;

import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// The custom search attributes that make the Temporal UI a deployment-history browser, e.g.
//   MdNamespace = "team-a" AND MdPhase = "Failed"
export const MdNamespace = defineSearchAttributeKey('MdNamespace', SearchAttributeType.KEYWORD);
export const MdName = defineSearchAttributeKey('MdName', SearchAttributeType.KEYWORD);
export const MdProvider = defineSearchAttributeKey('MdProvider', SearchAttributeType.KEYWORD);
export const MdPhase = defineSearchAttributeKey('MdPhase', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [MdNamespace, MdName, MdProvider, MdPhase] as const;

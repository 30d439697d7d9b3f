import { describe, expect, it } from 'vitest';
import type { AnyObject, CustomObjects } from '../../kube/custom-objects.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { MAX_RELATED, readRelated } from './related-read.ts';

const POD = { apiVersion: 'v1', kind: 'Pod', plural: 'pods' };
const pod = (name: string, md: string): AnyObject => ({ metadata: { name, namespace: 'ns', labels: { 'kubeairunway.ai/model-deployment': md } } });

describe('readRelated', () => {
  it('takes the cache when it holds the kind, keeping only the deployment’s objects', async () => {
    const informers = { selection: () => [pod('a-1', 'a'), pod('b-1', 'b')] } as unknown as InformerSet;
    const objects = { list: () => Promise.reject(new Error('no API call expected')) } as unknown as CustomObjects;
    expect(await readRelated(objects, informers, [POD], 'ns', 'a')).toEqual({ Pod: [pod('a-1', 'a')] });
  });

  it('else lists from the API server by label, bounded', async () => {
    const asked: unknown[] = [];
    const many = Array.from({ length: MAX_RELATED + 5 }, (_, i) => pod(`a-${i}`, 'a'));
    const objects = { list: (ref: unknown) => (asked.push(ref), Promise.resolve(many)) } as unknown as CustomObjects;
    const related = await readRelated(objects, undefined, [POD], 'ns', 'a');
    expect(related.Pod).toHaveLength(MAX_RELATED);
    expect(asked).toEqual([{ group: '', version: 'v1', plural: 'pods', namespace: 'ns', labelSelector: 'kubeairunway.ai/managed-by=kubeairunway,kubeairunway.ai/model-deployment=a', limit: MAX_RELATED }]);
  });
});

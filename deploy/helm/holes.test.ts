import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Holes, withBlock } from './holes.ts';
import { changedFields } from './object-diff.ts';

describe('Holes', () => {
  it('swaps value tokens in place and block tokens (map keys and list items) for lines at their column', () => {
    const holes = new Holes();
    const obj = { spec: { replicas: holes.value('{{ .Values.replicas }}'), args: ['run', holes.block(() => ['{{- if .Values.x }}', '- --x', '{{- end }}'])], [holes.block(withBlock('nodeSelector', '.Values.nodeSelector'))]: null } };
    expect(holes.fill(stringify(obj))).toBe(
      [
        'spec:',
        '  replicas: {{ .Values.replicas }}',
        '  args:',
        '    - run',
        '    {{- if .Values.x }}',
        '    - --x',
        '    {{- end }}',
        '  {{- with .Values.nodeSelector }}',
        '  nodeSelector:',
        '    {{- toYaml . | nindent 4 }}',
        '  {{- end }}',
        '',
      ].join('\n'),
    );
  });

  it('refuses a token the printer did not leave on a line of its own', () => {
    const holes = new Holes();
    const token = holes.block(() => ['x']);
    expect(() => holes.fill(`a: [${token}]`)).toThrow(/placeholder was left/);
  });
});

describe('changedFields', () => {
  const o = (name: string, spec: unknown) => ({ apiVersion: 'v1', kind: 'X', metadata: { name, namespace: 'n' }, spec });
  it('names each differing leaf, and objects found in one set only', () => {
    expect(changedFields([o('a', { r: 1, l: [1, 2] }), o('b', {})], [o('a', { r: 2, l: [1, 2, 3], new: {} }), o('c', {})])).toEqual(['+ X n/c', '- X n/b', 'X n/a: spec.l.2', 'X n/a: spec.new', 'X n/a: spec.r']);
  });
});

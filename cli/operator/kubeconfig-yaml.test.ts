// The kubeconfig reader against the `yaml` package: the same value for every kubeconfig shape people
// have, and a refusal (so the caller falls back to the package) for YAML beyond its subset.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { BeyondSubset, parseKubeconfigYaml } from './kubeconfig-yaml.ts';

const kubectlStyle = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=
    server: https://127.0.0.1:6443
  name: kind-kind
- cluster:
    insecure-skip-tls-verify: true
    server: "https://10.0.0.1:443"
    tls-server-name: 'api.example.com'
  name: "prod # not a comment"
contexts:
- context:
    cluster: kind-kind
    namespace: team-a   # a comment
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: QUJD
    client-key-data: REVG
- name: token-user
  user:
    token: "abc\\"def"
- name: exec-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - eks
      - get-token
      - --cluster-name
      - "my cluster"
      command: aws
      env: null
      interactiveMode: IfAvailable
      provideClusterInfo: false
`;

const indentedLists = `# written by hand
---
apiVersion: v1
kind: Config
current-context: dev
clusters:
  - name: local
    cluster:
      server: http://127.0.0.1:8080
contexts:
  - name: dev
    context:
      cluster: local
      user: me
users:
  - name: me
    user:
      token: 12345
      password: it's
      username: ''
extensions: []
`;

describe('kubeconfig YAML subset', () => {
  it.each([
    ['kubectl-written, with quotes, comments and an exec plugin', kubectlStyle],
    ['hand-written with indented lists and a document marker', indentedLists],
    ["this repository's devstack kubeconfig", stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'dev', cluster: { server: 'https://127.0.0.1:40001', 'certificate-authority': '/tmp/x/ca.crt' } }], users: [{ name: 'admin', user: { token: 'a.b-c' } }], contexts: [{ name: 'dev', context: { cluster: 'dev', user: 'admin', namespace: 'default' } }], 'current-context': 'dev' })],
  ])('reads %s as the yaml package does', (_what, text) => {
    expect(parseKubeconfigYaml(text)).toEqual(parse(text));
  });

  it.each([
    ['an anchor', 'a: &x 1\nb: *x\n'],
    ['a block scalar', 'data: |\n  line\n'],
    ['a flow mapping with content', 'preferences: {colors: true}\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a tab', 'a:\n\tb: 1\n'],
    ['a float', 'a: 1.5\n'],
  ])('gives up on %s', (_what, text) => {
    expect(() => parseKubeconfigYaml(text)).toThrow(BeyondSubset);
  });
});

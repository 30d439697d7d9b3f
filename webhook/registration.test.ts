import { describe, expect, it } from 'vitest';
import { PROVIDER_CONFIG_WEBHOOK_NAME, SPEC_CHANGED_CONDITION, webhookConfigurations } from './registration.ts';

const pem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';

describe('webhookConfigurations', () => {
  it('URL endpoint: both configurations, never in the way of deletes, status writes or metadata edits', () => {
    const { validating, mutating } = webhookConfigurations(
      { endpoint: { url: 'https://127.0.0.1:9443/' }, configurationNames: { validating: 'v-test', mutating: 'm-test' }, namespaceSelector: { matchLabels: { team: 'a' } } },
      pem,
    );
    expect(validating).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v-test', labels: { 'app.kubernetes.io/managed-by': 'kubeairunway-webhook' } },
      webhooks: [
        {
          name: 'validate.modeldeployments.kubeairunway.ai',
          clientConfig: { url: 'https://127.0.0.1:9443/validate-modeldeployment', caBundle: Buffer.from(pem).toString('base64') },
          rules: [{ apiGroups: ['kubeairunway.ai'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['modeldeployments'], scope: 'Namespaced' }],
          matchConditions: [SPEC_CHANGED_CONDITION],
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 5,
          namespaceSelector: { matchLabels: { team: 'a' } },
        },
        {
          name: 'validate.inferenceproviderconfigs.kubeairunway.ai',
          clientConfig: { url: 'https://127.0.0.1:9443/validate-inferenceproviderconfig', caBundle: Buffer.from(pem).toString('base64') },
          rules: [{ apiGroups: ['kubeairunway.ai'], apiVersions: ['v1alpha1'], operations: ['CREATE', 'UPDATE'], resources: ['inferenceproviderconfigs'], scope: 'Cluster' }],
          matchConditions: [SPEC_CHANGED_CONDITION],
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 5,
          // Cluster-scoped: the namespace selector cannot confine it; every provider config is reviewed.
          objectSelector: {},
        },
      ],
    });
    expect(mutating.kind).toBe('MutatingWebhookConfiguration');
    expect(mutating.metadata?.name).toBe('m-test');
    const hook = (mutating.webhooks as Record<string, unknown>[])[0]!;
    expect(hook).toMatchObject({ name: 'default.modeldeployments.kubeairunway.ai', reinvocationPolicy: 'Never', failurePolicy: 'Ignore' });
    expect(hook.clientConfig).toMatchObject({ url: 'https://127.0.0.1:9443/mutate-modeldeployment' });
  });

  it('Service endpoint for a cluster', () => {
    const { validating } = webhookConfigurations({ endpoint: { service: { namespace: 'kubeairunway-system', name: 'kubeairunway-webhook' } } }, pem);
    const hook = (validating.webhooks as Record<string, unknown>[])[0]!;
    expect(validating.metadata?.name).toBe('kubeairunway-validating-webhook');
    expect(hook.clientConfig).toEqual({
      service: { namespace: 'kubeairunway-system', name: 'kubeairunway-webhook', path: '/validate-modeldeployment', port: 443 },
      caBundle: Buffer.from(pem).toString('base64'),
    });
    expect(hook.namespaceSelector).toEqual({});
  });

  it('provider configs can be confined by label (cluster-scoped objects ignore the namespace selector)', () => {
    const selector = { matchLabels: { 'test.kubeairunway.ai/webhook': 'v-test' } };
    const { validating } = webhookConfigurations({ endpoint: { url: 'https://127.0.0.1:9443' }, providerConfigSelector: selector }, pem);
    const hook = (validating.webhooks as Record<string, unknown>[]).find((h) => h.name === PROVIDER_CONFIG_WEBHOOK_NAME)!;
    expect(hook.objectSelector).toEqual(selector);
    expect(hook).not.toHaveProperty('namespaceSelector');
  });

  it('the match condition sends creates and spec changes only', () => {
    expect(SPEC_CHANGED_CONDITION.expression).toBe(
      "request.operation == 'CREATE' || !has(object.spec) || !has(oldObject.spec) || object.spec != oldObject.spec",
    );
  });
});

import { describe, expect, it } from 'vitest';
import { endpointUrl, targetUrl } from './target-url.ts';

describe('targetUrl', () => {
  it('targetURL as given', () => {
    expect(targetUrl({ targetURL: 'http://phi-3-inference:8080' }, 'ml')).toBe('http://phi-3-inference:8080');
  });

  it("targetService: the Service's cluster DNS name in the actor's namespace, with the path", () => {
    expect(targetUrl({ targetService: { name: 'phi-3', port: 80, protocol: 'http', path: '/v1/chat/completions' } }, 'ml')).toBe(
      'http://phi-3.ml.svc.cluster.local:80/v1/chat/completions',
    );
  });

  it('targetService in its own namespace, https, no path', () => {
    expect(targetUrl({ targetService: { name: 'llm', port: 8443, namespace: 'serving', protocol: 'https' } }, 'ml')).toBe('https://llm.serving.svc.cluster.local:8443');
  });

  it('neither: undefined (a ModelDeployment target gives its endpoint instead)', () => {
    expect(targetUrl({}, 'ml')).toBeUndefined();
  });
});

describe('endpointUrl', () => {
  it("a ModelDeployment's status.endpoint, in its namespace", () => {
    expect(endpointUrl({ service: 'gemma-cpu', port: 80 }, 'default')).toBe('http://gemma-cpu.default.svc.cluster.local:80');
  });

  it('undefined until the provider reports one', () => {
    expect([endpointUrl(undefined, 'ml'), endpointUrl({ service: 'x' }, 'ml'), endpointUrl({ port: 80 }, 'ml')]).toEqual([undefined, undefined, undefined]);
  });
});

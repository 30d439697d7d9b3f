import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsResourceName, providerResourceName } from './names.ts';

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** What the API server accepts as a ModelDeployment name (a DNS-1123 subdomain). */
const subdomain = fc
  .array(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/), { minLength: 1, maxLength: 12 })
  .map((labels) => labels.join('.').slice(0, 253).replace(/[-.]+$/, ''))
  .filter((name) => name.length > 0);

describe('providerResourceName', () => {
  it('keeps a name that fits', () => {
    expect(providerResourceName('llama-8b', 43)).toBe('llama-8b');
    expect(providerResourceName('a'.repeat(43), 43)).toBe('a'.repeat(43));
  });

  it('shortens a long name to its start and a hash of the whole name', () => {
    const name = `${'a'.repeat(60)}-chat`;
    expect(providerResourceName(name, 43)).toMatch(/^a{34}-[0-9a-f]{8}$/);
    // The same start, another end: another name.
    expect(providerResourceName(`${'a'.repeat(60)}-code`, 43)).not.toBe(providerResourceName(name, 43));
  });

  it('replaces what a DNS-1035 label cannot hold and starts with a letter', () => {
    expect(providerResourceName('llama-3.1-8b', 52)).toMatch(/^llama-3-1-8b-[0-9a-f]{8}$/);
    expect(providerResourceName('3b-chat', 52)).toMatch(/^md-3b-chat-[0-9a-f]{8}$/);
    expect(providerResourceName('0', 52)).toMatch(/^md-0-[0-9a-f]{8}$/);
  });

  it('for any ModelDeployment name: a DNS-1035 label within the limit, the same every time, the name itself when it fits', () => {
    fc.assert(
      fc.property(subdomain, fc.integer({ min: 20, max: 63 }), (name, max) => {
        const result = providerResourceName(name, max);
        expect(result.length).toBeLessThanOrEqual(max);
        expect(result).toMatch(DNS_1035_LABEL);
        expect(providerResourceName(name, max)).toBe(result);
        if (fitsResourceName(name, max)) expect(result).toBe(name);
        else expect(result).not.toBe(name);
      }),
      { numRuns: 500 },
    );
  });
});

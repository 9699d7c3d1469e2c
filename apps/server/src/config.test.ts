import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('ADMIN_EMAIL', () => {
  it('accepts the addresses the product signs in with, the default admin@localhost included', () => {
    expect(loadConfig({ ADMIN_EMAIL: 'admin@localhost' }).adminEmail).toBe('admin@localhost');
    expect(loadConfig({ ADMIN_EMAIL: ' Lead@Example.ORG ' }).adminEmail).toBe('lead@example.org');
  });

  it('refuses text that is no address, saying what it expects', () => {
    for (const bad of ['admin', 'two@at@example.org', 'spaced name@example.org', 'admin@'])
      expect(() => loadConfig({ ADMIN_EMAIL: bad }), bad).toThrow(/ADMIN_EMAIL: must be an email address/);
  });
});

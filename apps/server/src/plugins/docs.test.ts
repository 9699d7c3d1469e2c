import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, unknown>;
}

let t: TestApp;
let document: { servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: 'https://range.example.org' });
  document = JSON.parse(JSON.stringify(t.app.swagger())) as typeof document;
});
afterAll(async () => t?.close());

const operation = (method: string, url: string) =>
  document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];

describe('the OpenAPI document', () => {
  it('names PUBLIC_ORIGIN as its server', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: 'https://range.example.org' })]);
  });

  it('describes every API route once, with a unique operationId and the security its access needs', () => {
    const ids = new Set<string>();
    for (const route of t.app.apiRoutes.filter((r) => !r.url.startsWith('/api/docs'))) {
      const described = operation(route.method, route.url);
      if (route.hidden) {
        // An older address kept for one release: out of the document, and its new address is in it.
        expect(described, `${route.method} ${route.url}`).toBeUndefined();
        continue;
      }
      expect(described, `${route.method} ${route.url}`).toBeDefined();
      expect(described!.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(described!.operationId!);
      const tokenManagement = route.url.startsWith('/api/tokens');
      expect(described!.security).toEqual(
        route.access === 'public' ? [] : tokenManagement ? [{ session: [] }] : [{ session: [] }, { apiToken: [] }],
      );
      if (route.access === 'admin')
        expect(Object.keys(described!.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(ids.size).toBe(Object.values(document.paths).flatMap((methods) => Object.keys(methods)).length);
  });

  it('has no path with a trailing slash', () => {
    expect(Object.keys(document.paths).filter((path) => path.endsWith('/'))).toEqual([]);
  });
});

describe('the old trailing-slash paths', () => {
  it('redirect with 308 to the path without the slash, keeping the query', async () => {
    const response = await t.request({ method: 'GET', url: '/api/users/?page=2' });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/api/users?page=2');
  });

  it('keep the method and body of a POST (308), so a client that follows it starts its run', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/runs/',
      body: { scenarioId: 'x' },
      headers: { origin: 'https://range.example.org' },
    });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/api/runs');
  });

  it('stay 404 where no route exists without the slash', async () => {
    const response = await t.request({ method: 'GET', url: '/api/nothing-here/' });
    expect(response.statusCode).toBe(404);
  });
});

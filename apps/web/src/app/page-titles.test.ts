import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { followRouteTitles, ROUTE_TITLES, routeTitle } from './page-titles';
import { routes } from './router';

function routePaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path === undefined ? [] : [route.path]),
    ...routePaths(route.children ?? []),
  ]);
}

describe('page titles', () => {
  it('gives every route of the router a title of its own', () => {
    const missing = routePaths(routes).filter((path) => !(path in ROUTE_TITLES));
    expect(missing).toEqual([]);
  });

  it('names no title two routes share, so tabs and history tell pages apart', () => {
    const titles = Object.values(ROUTE_TITLES).filter((title) => title !== null);
    expect(titles.length).toBe(new Set(titles).size);
  });

  it('writes "Page · Tradecraft" from the deepest route with a path', () => {
    expect(routeTitle([{ route: {} }, { route: { path: '/scenarios' } }])).toBe('Scenarios · Tradecraft');
    expect(routeTitle([{ route: { path: '*' } }])).toBe('Page Not Found · Tradecraft');
    expect(routeTitle([{ route: { path: '/redirect' } }])).toBe('Tradecraft');
  });

  it('resets the title on a new path only, so a page that changes its query keeps the title it set', () => {
    let listener: ((state: never) => void) | undefined;
    const state = (pathname: string, path: string) => ({ location: { pathname }, matches: [{ route: { path } }] });
    followRouteTitles({
      state: state('/scenarios', '/scenarios'),
      subscribe: (next) => {
        listener = next as never;
      },
    });
    expect(document.title).toBe('Scenarios · Tradecraft');
    document.title = 'Own title';
    listener!(state('/scenarios', '/scenarios') as never);
    expect(document.title).toBe('Own title');
    listener!(state('/skills', '/skills') as never);
    expect(document.title).toBe('ATT&CK Skill Map · Tradecraft');
  });
});

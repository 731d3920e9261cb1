import { describe, expect, it } from 'vitest';
import { parseRoute, type Route, routeHash } from '../../src/shared/routes';

describe('routes', () => {
  it('write and read back every route, whatever the ids hold', () => {
    const routes: Route[] = [
      { name: 'pages.open', spaceId: 's1', path: 'README.md' },
      { name: 'pages.open', spaceId: 's1', path: 'guides/a b/#1 ü.md' },
      { name: 'review.comment', spaceId: 's/2', commentId: 'c?1' },
      { name: 'history.page', spaceId: 's1', pageKey: 'new:x/y.md' },
      { name: 'review.list', list: 'inbox' },
      { name: 'review.list', list: 'yours' },
      { name: 'review.changeRequest', spaceId: 's1', changeRequestId: 'cr/1' },
    ];
    for (const r of routes) expect(parseRoute(routeHash(r))).toEqual(r);
    expect(routeHash(routes[1]!)).toBe('#pages/s1/guides%2Fa%20b%2F%231%20%C3%BC.md');
  });

  it('read a link to a heading in a page as the page', () => {
    expect(parseRoute('#pages/s1/guides%2Fsetup.md#first%20steps')).toEqual({ name: 'pages.open', spaceId: 's1', path: 'guides/setup.md' });
  });

  it('read a plain view, or anything malformed, as no route', () => {
    for (const hash of [
      '',
      '#review',
      '#pages',
      '#pages/s1',
      '#pages/s1/p/extra',
      '#history/%E0%A4%A',
      '#review/thread/s1/c1',
      '#review/elsewhere',
      '#review/inbox/x',
    ])
      expect(parseRoute(hash)).toBeNull();
  });
});

/** Translations of an organization (translations.ts). */
import { paginate } from '../paging';
import { noContent, ok, type RouteTable } from './types';

export const translationRoutes: RouteTable = {
  listTranslations: (ctx) => {
    const list = ctx.store.translations.of(ctx.param('organizationId'));
    return ok(paginate(list, ctx.query, ctx.pageSize, (t) => ctx.store.translations.json(t, ctx.json)));
  },

  getTranslation: (ctx) => ok(ctx.store.translations.json(ctx.store.translations.get(ctx.param('organizationId'), ctx.param('translationId')), ctx.json)),

  runTranslation: (ctx) => {
    ctx.store.translations.run(ctx.param('organizationId'), ctx.param('translationId'));
    return noContent();
  },
};

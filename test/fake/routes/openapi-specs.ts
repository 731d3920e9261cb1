/** OpenAPI specifications of an organization and their versions (openapi-specs.ts). */
import { ApiError } from '../errors';
import { paginate } from '../paging';
import { created, ok, type RouteContext, type RouteTable } from './types';

const specOf = (ctx: RouteContext) => ctx.store.openapi.spec(ctx.param('organizationId'), ctx.param('specSlug'));

export const openapiSpecRoutes: RouteTable = {
  listOpenAPISpecs: (ctx) => {
    const specs = ctx.store.openapi.of(ctx.param('organizationId'));
    return ok(paginate(specs, ctx.query, ctx.pageSize, (s) => ctx.store.openapi.json(s, ctx.json)));
  },

  getOpenAPISpecBySlug: (ctx) => ok(ctx.store.openapi.json(specOf(ctx), ctx.json)),

  createOrUpdateOpenAPISpecBySlug: (ctx) => {
    const source = ctx.body.source as { text?: string; url?: string };
    const text = source.text ?? ctx.store.openapi.textAt(String(source.url), ctx.blobForUrl);
    const { spec, created: isNew } = ctx.store.openapi.publish(ctx.param('organizationId'), ctx.param('specSlug'), text);
    const body = ctx.store.openapi.json(spec, ctx.json);
    return isNew ? created(body) : ok(body);
  },

  listOpenAPISpecVersions: (ctx) => {
    const spec = specOf(ctx);
    const newestFirst = [...spec.versions].reverse();
    return ok(paginate(newestFirst, ctx.query, ctx.pageSize, (v) => ctx.store.openapi.versionJson(spec, v, ctx.json)));
  },

  getLatestOpenAPISpecVersion: (ctx) => {
    const spec = specOf(ctx);
    return ok(ctx.store.openapi.versionJson(spec, ctx.store.openapi.latest(spec), ctx.json));
  },

  getOpenAPISpecVersionById: (ctx) => {
    const spec = specOf(ctx);
    return ok(ctx.store.openapi.versionJson(spec, ctx.store.openapi.version(spec, ctx.param('versionId')), ctx.json));
  },

  getLatestOpenAPISpecVersionContent: (ctx) => {
    const spec = specOf(ctx);
    return ok(ctx.store.openapi.contentJson(spec, ctx.store.openapi.latest(spec), ctx.json));
  },

  getOpenAPISpecVersionContentById: (ctx) => {
    const spec = specOf(ctx);
    return ok(ctx.store.openapi.contentJson(spec, ctx.store.openapi.version(spec, ctx.param('versionId')), ctx.json));
  },

  getLatestOpenAPISpecVersionContentRaw: (ctx) => {
    const spec = specOf(ctx);
    const version = ctx.store.openapi.latest(spec);
    if (!version.raw) throw new ApiError(404, `no raw source is kept for the latest version of "${spec.slug}"`);
    return ok({ text: version.text, format: version.format });
  },
};

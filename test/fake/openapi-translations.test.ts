/**
 * The fake's OpenAPI specifications (with versions and raw text) and translations, through the
 * official client: every request and answer is validated against the OpenAPI document (a
 * violation fails the test through vitest-setup).
 */
import { GitBookAPI } from '@gitbook/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from './index';
import './vitest-setup';

let fake: FakeApi;
let client: GitBookAPI;

beforeEach(async () => {
  fake = await startFakeApi();
  client = new GitBookAPI({ endpoint: fake.url, authToken: fake.token });
});
afterEach(async () => {
  await fake.close();
});

const V1 = 'openapi: 3.0.3\ninfo: { title: Pets, version: 1.0.0 }\npaths: {}\n';
const V2 = 'openapi: 3.0.3\ninfo: { title: Pets, version: 1.1.0 }\npaths:\n  /pets:\n    get:\n      responses: { "200": { description: ok } }\n';

describe('OpenAPI specifications', () => {
  it('lists specs, their versions newest first, and the raw text of the latest', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const seeded = fake.store.openapi.add(org.id, { slug: 'pets', versions: [V1, V2] });
    const list = await client.orgs.listOpenApiSpecs(org.id);
    expect(list.data.items.map((s) => [s.slug, s.lastVersion])).toEqual([['pets', seeded.versions[1]!.id]]);
    const versions = await client.orgs.listOpenApiSpecVersions(org.id, 'pets');
    expect(versions.data.items.map((v) => v.id)).toEqual([seeded.versions[1]!.id, seeded.versions[0]!.id]);
    const raw = await client.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets');
    expect(raw.data).toEqual({ text: V2, format: 'yaml' });
    // A version's url serves its text.
    expect(await (await fetch(versions.data.items[1]!.url)).text()).toBe(V1);
  });

  it('creates a spec from text (201), adds a version to one (200), and keeps a text GitBook cannot parse with its error', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const first = await client.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: V1 } });
    expect(first.status).toBe(201);
    const second = await client.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: '{"swagger": "2.0", "info": {}, "paths": {}}' } });
    expect(second.status).toBe(200);
    expect(second.data.lastVersion).not.toBe(first.data.lastVersion);
    expect((await client.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data.format).toBe('json');
    const broken = await client.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text: 'title: not a spec\n' } });
    expect(broken.data).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
  });

  it('answers 404 for a missing spec and for the raw text of a legacy version, 400 for a bad slug', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    fake.store.openapi.add(org.id, { slug: 'legacy', versions: [V1], raw: false });
    const get = (path: string) => fetch(`${fake.url}/v1${path}`, { headers: { authorization: `Bearer ${fake.token}` } });
    expect((await get(`/orgs/${org.id}/openapi/nope`)).status).toBe(404);
    expect((await get(`/orgs/${org.id}/openapi/legacy/versions/latest/content/raw`)).status).toBe(404);
    const bad = await fetch(`${fake.url}/v1/orgs/${org.id}/openapi/bad--slug`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: { text: V1 } }),
    });
    expect(bad.status).toBe(400);
  });
});

describe('translations', () => {
  it('lists translations, runs one (204, pending) and a finished run names its result', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    const source = fake.store.addSpace(org.id, { title: 'Handbook' });
    const target = fake.store.addSpace(org.id, { title: 'Manuel' });
    const never = fake.store.translations.add(org.id, { source: source.id, language: 'de' });
    const fr = fake.store.translations.add(org.id, { source: source.id, language: 'fr', target: target.id });
    const list = await client.orgs.listTranslations(org.id);
    expect(list.data.items.map((t) => [t.id, t.language, t.status, t.result?.space ?? null])).toEqual([
      [never.id, 'de', 'pending', null],
      [fr.id, 'fr', 'completed', target.id],
    ]);
    expect((await client.orgs.runTranslation(org.id, fr.id)).status).toBe(204);
    expect((await client.orgs.getTranslation(org.id, fr.id)).data.status).toBe('pending');
    fake.store.translations.finishRun(fr.id);
    const done = await client.orgs.getTranslation(org.id, fr.id);
    expect(done.data).toMatchObject({ status: 'completed', stats: { runs: 2 }, result: { space: target.id, language: 'fr' } });
    const missing = await fetch(`${fake.url}/v1/orgs/${org.id}/translations/nope/run`, { method: 'POST', headers: { authorization: `Bearer ${fake.token}` } });
    expect(missing.status).toBe(404);
  });
});

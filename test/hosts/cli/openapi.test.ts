/**
 * Issue 29, item 4: an organization's OpenAPI specifications, run as users run them (the bundled
 * `quire`, its own process) against the fake. `openapi pull` writes each spec's latest version
 * into the sync folder, an edit is published as a new version with `openapi publish`, the preview
 * renders an operation from the local file and `check` flags a block naming an operation the
 * spec lacks; a file that is not a specification is refused with its line and reason.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { rewritingProxy } from '../../helpers/rewriting-proxy';
import { buildCli, killStarted, startQuire, type Exited } from '../../helpers/cli-process';
import { seedGuide, syncOnce } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

const PETS = `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List pets
      parameters:
        - name: limit
          in: query
          description: How many pets to list
          schema:
            type: integer
      responses:
        '200':
          description: A page of pets
`;

const ADD_PET = `    post:
      summary: Add a pet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Pet'
      responses:
        '201':
          description: The pet, as stored
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name:
          type: string
          description: What the pet answers to
        tag:
          type: string
`;

const API_PAGE = `Our API, operation by operation.

{% openapi-operation spec="pets" path="/pets" method="post" %}
[OpenAPI pets](https://example.com/pets.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="pets" path="/pets/{petId}" method="delete" %}
{% endopenapi-operation %}
`;

let fake: FakeApi;
let space: SpaceRec;
let root: string;
const run = (...args: string[]): Promise<Exited> => startQuire(args, { QUIRE_TOKEN: fake.token }).exited;
const puts = () => fake.requests.filter((r) => r.method === 'PUT' && r.path.includes('/openapi/'));

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake);
  fake.store.addPage(space.id, { title: 'API', markdown: API_PAGE });
  fake.store.openapi.add(space.orgId, { slug: 'pets', versions: [PETS] });
  root = tempDir('quire-openapi-');
  expect((await syncOnce(fake, root)).code).toBe(0);
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

/** The body of a GET through `quire preview`'s server. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('quire openapi', () => {
  it('pulls a spec, publishes an edit of it as a new version, and the preview renders the operation from the local file', async () => {
    const pulled = await run('openapi', 'pull', '--dir', root);
    expect(pulled.code, pulled.stderr).toBe(0);
    const file = join(root, '.openapi/pets.yaml');
    expect(readFileSync(file, 'utf8')).toBe(PETS);
    const first = fake.store.openapi.spec(space.orgId, 'pets').versions[0]!.id;
    expect(pulled.stdout).toContain(`Acme: pets → .openapi/pets.yaml (version ${first})`);

    // Before the edit the local spec lacks both operations the page names.
    const before = await run('check', '--dir', root);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('guide/api.md:5: warning: The OpenAPI specification pets (.openapi/pets.yaml) has no POST /pets.');
    expect(before.stdout).toContain('guide/api.md:9: warning: The OpenAPI specification pets (.openapi/pets.yaml) has no DELETE /pets/{petId}.');

    writeFileSync(file, `${PETS}${ADD_PET}`);
    const published = await run('openapi', 'publish', 'pets', file, '--dir', root);
    expect(published.code, published.stderr).toBe(0);
    const spec = fake.store.openapi.spec(space.orgId, 'pets');
    expect(spec.versions).toHaveLength(2);
    expect(spec.versions[1]!.text).toBe(`${PETS}${ADD_PET}`);
    expect(puts().map((r) => r.body)).toEqual([{ source: { text: `${PETS}${ADD_PET}` } }]);
    expect(published.stdout).toBe(`Published ${file} to pets in Acme: version ${spec.versions[1]!.id} (a new version; the previous was ${first}).\n`);

    // Pulling again finds the published version is the local file: nothing to write.
    const again = await run('openapi', 'pull', '--dir', root);
    expect(again.stdout).toContain('Acme: pets is up to date in .openapi/pets.yaml');
    expect(readFileSync(file, 'utf8')).toBe(`${PETS}${ADD_PET}`);

    const after = await run('check', '--dir', root);
    expect(after.stdout).not.toContain('has no POST /pets');
    expect(after.stdout).toContain('has no DELETE /pets/{petId}');

    const preview = startQuire(['preview', '--dir', root, '--port', '0']);
    const url = await new Promise<string>((resolve) => preview.child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
    const page = await get(`${url}guide/api.md`);
    expect(page.status).toBe(200);
    const html = page.body;
    const post = html.slice(html.indexOf('aria-label="API operation: POST /pets"'));
    expect(post).toMatch(
      /^aria-label="API operation: POST \/pets"><header class="gb-op-head"><span class="gb-method gb-method-post">POST<\/span><code class="gb-op-path">\/pets<\/code>/,
    );
    expect(post).toContain('<p class="gb-op-summary">Add a pet</p>');
    expect(post).toMatch(/Request body.*application\/json.*<code>name<\/code>.*string.*required.*What the pet answers to/s);
    expect(post).toMatch(/<span class="gb-op-status">201<\/span> The pet, as stored/);
    expect(post).toContain('From .openapi/pets.yaml');
    // The spec file is read again once it changes: an open preview shows the edit at the next load.
    writeFileSync(file, `${PETS}${ADD_PET}`.replace('Add a pet', 'Adopt a pet'));
    expect((await get(`${url}guide/api.md`)).body).toContain('<p class="gb-op-summary">Adopt a pet</p>');
    preview.child.kill('SIGINT');
    expect((await preview.exited).code).toBe(0);
  });

  it('refuses a file that is not an OpenAPI 3.x or Swagger 2.0 specification, with its line and reason, and sends nothing', async () => {
    const bad = join(root, 'bad.yaml');
    const cases: [string, string][] = [
      ['openapi: 3.0.3\ninfo:\n  title: Pets: Store\n  version: 1.0.0\npaths: {}\n', 'line 3: Nested mappings are not allowed in compact mappings'],
      ['title: Pets\npaths: {}\n', 'line 1: neither `openapi: 3.x` nor `swagger: "2.0"` at the top'],
      [
        'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: 1.0.0\npaths:\n  pets:\n    get:\n      responses: {}\n',
        'line 6: the path pets does not start with /',
      ],
      ['swagger: "1.2"\ninfo: { title: Pets, version: 1.0.0 }\npaths: {}\n', 'line 1: swagger: "1.2" is not 2.0'],
      ['{"openapi": "3.1.0", "info": {"title": "Pets"}, "paths": {}}', 'line 1: info has no version'],
    ];
    for (const [text, reason] of cases) {
      writeFileSync(bad, text);
      const refused = await run('openapi', 'publish', 'pets', bad, '--dir', root);
      expect(refused.code, text).toBe(1);
      expect(refused.stderr, text).toContain(`quire openapi: ${bad} is not an OpenAPI 3.x or Swagger 2.0 specification: ${reason}`);
      expect(refused.stderr.trim().split('\n'), text).toHaveLength(1);
      expect(refused.stderr).toMatch(/Nothing was sent\.$/m);
    }
    expect(puts()).toEqual([]);
    expect(fake.store.openapi.spec(space.orgId, 'pets').versions).toHaveLength(1);
  });

  it('keeps a local edit when the server has a newer version too, writing the server’s beside it', async () => {
    expect((await run('openapi', 'pull', '--dir', root)).code).toBe(0);
    const file = join(root, '.openapi/pets.yaml');
    writeFileSync(file, `${PETS}# edited here\n`);
    fake.store.openapi.publish(space.orgId, 'pets', `${PETS}# edited on GitBook\n`);
    const pulled = await run('openapi', 'pull', '--dir', root);
    expect(pulled.code).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(`${PETS}# edited here\n`);
    expect(readFileSync(join(root, '.openapi/pets.remote.yaml'), 'utf8')).toBe(`${PETS}# edited on GitBook\n`);
    expect(pulled.stderr).toContain(
      'Acme: pets was edited here and on GitBook: your file .openapi/pets.yaml is kept, GitBook’s version is in .openapi/pets.remote.yaml',
    );
  });

  it('lists specs and versions, and answers from the mirror when offline, saying since when', async () => {
    fake.store.openapi.publish(space.orgId, 'pets', `${PETS}# second\n`);
    fake.store.openapi.add(space.orgId, { slug: 'billing', versions: [PETS] });
    const [v1, v2] = fake.store.openapi.spec(space.orgId, 'pets').versions;
    const list = await run('openapi', 'list', '--dir', root);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^Acme: 2 OpenAPI specifications\n/);
    expect(list.stdout).toMatch(new RegExp(`\\n {2}pets {5}version ${v2!.id}, updated \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC — not pulled\\n`));
    const versions = await run('openapi', 'versions', 'pets', '--dir', root, '--json');
    const json = JSON.parse(versions.stdout) as { versions: { id: string; latest: boolean }[] };
    expect(json.versions.map((v) => [v.id, v.latest])).toEqual([
      [v2!.id, true],
      [v1!.id, false],
    ]);

    fake.faults.offline = true;
    const offline = await run('openapi', 'list', '--dir', root);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(list.stdout);
    expect(offline.stderr).toMatch(/^Showing the local mirror, last refreshed \d{4}-\d\d-\d\d \d\d:\d\d UTC \(/m);
  });

  it('never names a file after a slug GitBook does not give, whatever the server lists', async () => {
    fake.store.openapi.add(space.orgId, { slug: 'billing', versions: [PETS] });
    // A hostile server renames a spec in the listing: `../../evil`, with its raw text answered as any other.
    const proxy = await rewritingProxy(fake.url, (x) => {
      if (x.method !== 'GET' || !x.path.endsWith('/openapi')) return undefined;
      return { body: x.body.toString('utf8').replace('"slug":"billing"', '"slug":"../../evil"') };
    });
    try {
      expect((await run('sync', '--api', proxy.url, '--dir', root, '--once')).code).toBe(0);
      const pulled = await run('openapi', 'pull', '--dir', root);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(pulled.stderr).toContain(
        'Acme: a specification named "../../evil" was left alone: that is not a slug GitBook gives (letters, digits, single hyphens).',
      );
      expect(pulled.stdout).toContain('Acme: pets → .openapi/pets.yaml');
      expect(readdirSync(join(root, '.openapi'))).toEqual(['pets.yaml']);
      expect(existsSync(join(root, '..', 'evil.yaml')) || existsSync(join(root, '../..', 'evil.yaml'))).toBe(false);
      expect(fake.requests.some((r) => r.path.includes('evil'))).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});

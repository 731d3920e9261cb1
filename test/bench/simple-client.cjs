// The simplest client that does the same job as a first `quire sync --once`, the bench's reference (issue 31):
//   node test/bench/simple-client.cjs <api origin> <folder> <space id>...   (the token in QUIRE_TOKEN)
// Node's http with a keep-alive agent of 8 sockets; one GET /v1/spaces/{id}/content per space, then every
// document page's GET …/content/page/{pageId}?format=markdown, 8 in flight, each answer's `markdown`
// written to a file of its own (<folder>/<space id>/<page id>.md). Nothing else: no database, no index, no
// SUMMARY.md. CommonJS, plain JavaScript: it starts as fast as Node does.
'use strict';
const http = require('node:http');
const { mkdirSync } = require('node:fs');
const { writeFile } = require('node:fs/promises');
const { join } = require('node:path');

const [origin, folder, ...spaceIds] = process.argv.slice(2);
const IN_FLIGHT = 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const headers = { authorization: `Bearer ${process.env.QUIRE_TOKEN}` };

function getJson(path) {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, origin), { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Runs `work` over `items`, `limit` at a time. */
async function bounded(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

function documents(pages, out = []) {
  for (const page of pages) {
    if (page.type === 'document') out.push(page.id);
    if (page.pages) documents(page.pages, out);
  }
  return out;
}

async function main() {
  const pages = [];
  await bounded(spaceIds, IN_FLIGHT, async (spaceId) => {
    const content = await getJson(`/v1/spaces/${spaceId}/content`);
    mkdirSync(join(folder, spaceId), { recursive: true });
    for (const pageId of documents(content.pages)) pages.push({ spaceId, pageId });
  });
  await bounded(pages, IN_FLIGHT, async ({ spaceId, pageId }) => {
    const page = await getJson(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
    await writeFile(join(folder, spaceId, `${pageId}.md`), page.markdown);
  });
  agent.destroy();
  process.stdout.write(`${pages.length} pages\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});

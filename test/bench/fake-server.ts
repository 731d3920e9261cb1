/**
 * The fake API in a process of its own, for a benchmark that runs the engine in the bench's
 * process (so the two do not share a thread): seeds one generated space of PAGES pages, answers
 * after LATENCY_MS, prints `{ url, token, spaceId }` as its first stdout line, and runs until killed.
 */
import { startFakeApi } from '../fake';
import { generateSpace } from '../fake/seed';

const fake = await startFakeApi({ latencyMs: Number(process.env.LATENCY_MS ?? 20) });
const org = fake.store.addOrg({ title: 'Bench' });
const space = generateSpace(fake.store, org.id, { pages: Number(process.env.PAGES ?? 2000), bytesPerPage: 3000, seed: 7 });
process.stdout.write(`${JSON.stringify({ url: fake.url, token: fake.token, spaceId: space.id })}\n`);

/**
 * `npm run bench`: prints the figures the issues set targets for, each beside its target with
 * how it was measured (the median of several runs, with their spread). Each section runs
 * against the test fake on loopback; wall times are as noisy as the machine is busy.
 */
import { benchSync } from './sync';
import { benchPush } from './push';
import { benchReview } from './review';
import { benchReviewView } from './review-view';
import { benchReviewViewUi } from './review-view-ui';
import { benchUi } from './ui';
import { benchState } from './state';
import { benchCheckPreview } from './check-preview';
import { benchFind } from './find';
import { benchIndexUpkeep } from './index-upkeep';
import { benchStartup } from './startup';
import { benchManySpaces } from './many-spaces';
import { benchBigSpace } from './big-space';
import { benchSimplestClient } from './simplest-client';
import { closeSharedChromium } from '../helpers/chromium';

type Section = { title: string; run: () => Promise<Record<string, string | number>> };

const sections: Section[] = [
  { title: 'Start-up (the installed command: to its first request; status and search)', run: benchStartup },
  { title: 'Sync (2,000 pages of ~3 KB: 20 ms latency, a rate limit, 150 ms latency)', run: benchSync },
  { title: 'First pull against the simplest client (1 x 2,000 and 200 x 10 pages of ~3 KB, 20 ms latency)', run: benchSimplestClient },
  { title: 'Sync of many spaces (200 x 10 and 50 x 40 pages of ~3 KB, 20 ms latency)', run: benchManySpaces },
  { title: 'Sync of a 20,000-page space (~3 KB a page, 20 ms latency)', run: benchBigSpace },
  { title: 'Push (local edits into a change request)', run: benchPush },
  { title: 'Review (200 change requests, 5,000 comments)', run: benchReview },
  { title: 'Review view (50 change requests, 500 comments)', run: () => benchReviewView() },
  { title: 'Review view in Chromium (50 change requests, 500 comments)', run: () => benchReviewViewUi() },
  { title: 'Desktop UI (web host in headless Chromium)', run: benchUi },
  { title: 'Sync state in the window (web host in headless Chromium)', run: benchState },
  { title: 'Check and preview (2,000 pages of ~3 KB)', run: benchCheckPreview },
  { title: 'Search (20,000 pages, 5,000 comments) and history (2,000 pages x 10 versions)', run: benchFind },
  { title: 'Search index upkeep in a pull (2,000 pages of ~3 KB, 20 ms latency)', run: benchIndexUpkeep },
];

const only = process.argv[2];
for (const section of sections) {
  if (only && !section.title.toLowerCase().includes(only.toLowerCase())) continue;
  console.log(`\n## ${section.title}`);
  const figures = await section.run();
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(width)}  ${v}`);
}
// The Chromium sections share one browser (test/helpers/chromium.ts): ended here, or the bench never exits.
await closeSharedChromium();

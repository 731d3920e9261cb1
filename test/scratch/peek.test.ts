import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { startFakeApi } from '../fake';
import { quire, tempDir } from '../helpers/cli';
import { seedGuide } from '../helpers/sync';

it('peek', async () => {
  const fake = await startFakeApi();
  const space = seedGuide(fake);
  const root = tempDir();
  const env = { QUIRE_TOKEN: fake.token };
  await quire(['sync', '--api', fake.url, '--dir', root, '--once'], { env });
  writeFileSync(join(root, 'guide', 'faq.md'), '# FAQ\n\n{% hint style="info" %}\nNever closed.\n');
  writeFileSync(join(root, 'guide', 'new-page.md'), '# My new page\n\nHello.\n');
  writeFileSync(join(root, 'guide', 'changelog.md'), '# Changelog\n\nA change.\n');
  console.log((await quire(['sync', '--dir', root, '--once'], { env })).stdout);
  rmSync(join(root, 'guide', 'getting-started/configure.md'));
  console.log((await quire(['status', '--dir', root])).stdout);
  await fake.close();
  void space;
});

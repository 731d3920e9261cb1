import { resolve } from 'node:path';
import { CheckSetupError } from '../../../core/check';
import { hasMirror } from '../../../core/mirror';
import { startPreview } from '../../preview';
import { dirFlag, portFlag, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';

/**
 * `quire preview --dir <folder> [--port N]`: the folder rendered as GitBook renders it, with
 * `quire check`'s problems on each page and live reload. The first stdout line is the address to
 * open, secret included; everything else goes to stderr. Runs until the signal aborts (Ctrl+C).
 */
export async function preview(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = resolve(dirFlag(args));
  const port = portFlag(args);
  const mirror = hasMirror(dir) ? ctx.openMirror(dir) : null;
  let server: Awaited<ReturnType<typeof startPreview>>;
  try {
    server = await startPreview({ dir, port, mirror, log: io.stderr });
  } catch (err) {
    mirror?.close();
    if (err instanceof CheckSetupError) {
      io.stderr(`quire preview: ${err.message.replace('nothing to check', 'nothing to preview')}`);
      return EXIT.error;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`Port ${port} is in use. Choose another with --port, or leave --port out to take a free one.`);
    throw err;
  }
  io.stdout(server.url);
  const pages = server.site.spaces.reduce((n, s) => n + s.files.filter((f) => f.kind === 'page').length, 0);
  io.stderr(
    `Previewing ${dir} (${plural(server.site.spaces.length, 'space')}, ${plural(pages, 'page')}). Open the address above (it holds this session's secret); saving a file updates the open page. Ctrl+C stops.`,
  );
  if (!io.signal.aborted) await new Promise<void>((done) => io.signal.addEventListener('abort', () => done(), { once: true }));
  await server.close();
  mirror?.close();
  return EXIT.ok;
}

import { join, resolve } from 'node:path';
import { API_URL_META, normaliseApiUrl as parseApiUrl } from '../../../core/api';
import { hasMirror, Mirror } from '../../../core/mirror';
import { FileGivenAddresses, type GivenAddresses, KeytarTokenStore, type TokenStore } from '../../../core/secrets';
import { defaultRendererDir, rendererBuilt } from '../../service';
import { startWebHost } from '../../web';
import { dirFlag, flag, portFlag, UsageError, type ParsedArgs } from '../args';
import { giveApiUrl, givenApiUrl, normaliseApiUrl, refuseUngiven } from '../context';
import { EXIT, type CliIo } from '../io';

/**
 * `quire ui --api <base_url> --dir <folder> [--port N]`: the app in a browser.
 * The first stdout line is the address to open, secret included; everything
 * else goes to stderr. Runs until the signal aborts (Ctrl+C).
 */
export async function ui(args: ParsedArgs, io: CliIo, ctx: { tokens?: TokenStore; given?: GivenAddresses; rendererDir?: string } = {}): Promise<number> {
  const dir = resolve(dirFlag(args));
  const explicitApi = flag(args, 'api');
  const given = ctx.given ?? new FileGivenAddresses();
  const remembered = rememberedApi(dir);
  if (explicitApi === undefined && remembered === null) throw new UsageError('missing --api <base_url> (this folder has not synced with any API yet)');
  const apiUrl = normaliseApiUrl(explicitApi ?? remembered!);
  // The app started with QUIRE_TOKEN sends it to `apiUrl`: never to an address the folder alone names.
  if (explicitApi === undefined) refuseUngiven(apiUrl, givenApiUrl(given, dir), !!io.env.QUIRE_TOKEN?.trim(), dir);
  const port = portFlag(args);

  const rendererDir = ctx.rendererDir ?? defaultRendererDir();
  if (!rendererBuilt(rendererDir)) {
    throw new Error(
      `The app's web files are not built (${join(rendererDir, 'index.html')} is missing). Run \`npm run build\` in the Quire folder, then \`quire ui\` again.`,
    );
  }
  let host: Awaited<ReturnType<typeof startWebHost>>;
  try {
    host = await startWebHost({
      apiUrl,
      dir,
      port,
      rendererDir,
      tokens: ctx.tokens ?? new KeytarTokenStore(),
      token: io.env.QUIRE_TOKEN?.trim() || undefined,
      log: io.stderr,
    });
  } catch (err) {
    // The web host binds its port before it opens the folder or starts a sync: nothing is left running.
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`Port ${port} is in use. Choose another with --port, or leave --port out to take a free one.`);
    throw err;
  }
  // Given on the command line for a folder of that API (or a new one): QUIRE_TOKEN may go there for it from now on.
  if (explicitApi !== undefined && (remembered === null || sameAddress(remembered, apiUrl))) giveApiUrl(given, dir, apiUrl, io.stderr);
  io.stdout(host.url);
  io.stderr(`Quire is serving ${join(dir)} for ${apiUrl}. Open the address above in a browser (it holds this session's secret). Ctrl+C stops.`);
  if (!io.signal.aborted) await new Promise<void>((done) => io.signal.addEventListener('abort', () => done(), { once: true }));
  io.stderr('Stopping: letting the current sync step finish…');
  await host.close();
  return EXIT.ok;
}

/** The API this folder last synced with (by any host), as the mirror holds it, read without creating a mirror where there is none. */
function rememberedApi(dir: string): string | null {
  return (hasMirror(dir) ? withMirror(dir, (m) => m.catalog.getMeta(API_URL_META)) : null) || null;
}

/** `raw` (as a mirror holds it) is the address `apiUrl`. */
function sameAddress(raw: string, apiUrl: string): boolean {
  try {
    return parseApiUrl(raw) === apiUrl;
  } catch {
    return false;
  }
}

function withMirror<T>(dir: string, read: (mirror: Mirror) => T): T {
  const mirror = Mirror.open(dir);
  try {
    return read(mirror);
  } finally {
    mirror.close();
  }
}

/**
 * `quire preview`'s server: the folder rendered as GitBook renders it, on 127.0.0.1 under the
 * per-launch secret's path `/s/<secret>/` (hosts/loopback's server, as the web host): every
 * page, file, the live-reload stream (server-sent events) and the search endpoint live below
 * it, and no cookie carries the secret (a cookie would reach any other server on 127.0.0.1).
 * Pages get a strict CSP (only our own script, styles and fonts — KaTeX's, served from the
 * package —, images from the folder, no frames, no forms, no plugins); files of the folder are
 * served only when they are content of a space (never Quire's state) and, checked at every
 * request, neither a symlink nor reached through one out of the folder; images inline and
 * everything else as a download, each under a CSP that runs nothing (an SVG or HTML asset
 * cannot script the preview).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { Mirror } from '../../core/mirror';
import { preloadRenderer } from '../../core/preview';
import { appPath, COMMON_HEADERS, createSecret, send, startLoopbackServer } from '../loopback';
import { projectRoot } from '../service/renderer-files';
import { LIVE_RELOAD_SCRIPT, PREVIEW_LAYOUT_CSS } from './client';
import { BEFORE_PREFIX, Compare, type Side } from './compare';
import { homeDocument, notFoundDocument, pageDocument } from './document';
import { MAX_QUERY_CHARS, searchPreview } from './search';
import { OWN_PREFIX, PreviewSite } from './site';
import { watchFolder } from './watch';

export interface PreviewOptions {
  /** The folder to serve: a sync folder, a repository of space folders, or one space folder. */
  dir: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** The sync folder's mirror, when it has one (space titles, stable references). */
  mirror?: Pick<Mirror, 'catalog' | 'content' | 'openapi' | 'search'> | null;
  log?: (line: string) => void;
}

export interface PreviewServer {
  /** The address to open, secret included. */
  url: string;
  origin: string;
  site: PreviewSite;
  close(): Promise<void>;
}

const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
const FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const secret = createSecret();
  const site = PreviewSite.load(options.dir, options.mirror ?? null, appPath(secret));
  // A change request's checkout: main at its base is served beside it, as "before".
  const compare = new Compare(options.dir, appPath(secret), site);
  // A space whose folder the mirror names outside the sync folder is left out (stored-paths.ts): said, not shown.
  for (const s of options.mirror?.catalog.selectedSpaces() ?? []) if (s.folderRefused !== null) log(s.folderRefused);
  const pageCss = await readFile(join(projectRoot(), 'src', 'shared', 'page.css'), 'utf8');
  const streams = new Set<ServerResponse>();

  const behaviour = await readFile(join(projectRoot(), 'src', 'shared', 'page-behaviour.js'), 'utf8');
  const katexDir = join(dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist');

  /** The preview's own files, by their name below `<base>_quire/`. */
  const ownFiles = new Map([
    ['page.css', { type: 'text/css; charset=utf-8', body: pageCss }],
    ['preview.css', { type: 'text/css; charset=utf-8', body: PREVIEW_LAYOUT_CSS }],
    ['live.js', { type: 'text/javascript; charset=utf-8', body: LIVE_RELOAD_SCRIPT }],
    ['page-behaviour.js', { type: 'text/javascript; charset=utf-8', body: behaviour }],
  ]);

  /** KaTeX's stylesheet and fonts, served from the package (no CDN: the preview works offline and its CSP allows only itself). */
  async function katexFile(name: string): Promise<{ type: string; body: Buffer } | null> {
    const font = /^fonts\/(KaTeX_[A-Za-z0-9_-]+)\.(woff2|woff|ttf)$/.exec(name);
    if (name !== 'katex.min.css' && !font) return null;
    const body = await readFile(join(katexDir, name)).catch(() => null);
    if (!body) return null;
    return { type: font ? `font/${font[2]}` : 'text/css; charset=utf-8', body };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const own = path.startsWith(`/${OWN_PREFIX}`) ? path.slice(OWN_PREFIX.length + 1) : null;
    if (own === 'events') {
      res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
      res.write(`retry: 1000\nevent: hello\ndata: ${site.version}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (own === 'search') {
      const query = new URL(req.url ?? '/', 'http://placeholder').searchParams.get('q') ?? '';
      if (query.length > MAX_QUERY_CHARS) {
        return send(
          res,
          200,
          'application/json; charset=utf-8',
          JSON.stringify({ query: '', results: [], error: `That search is too long (over ${MAX_QUERY_CHARS} characters): use fewer words.` }),
        );
      }
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ query, results: searchPreview(site, options.mirror ?? null, query) }));
    }
    const ownFile = own === null ? undefined : ownFiles.get(own);
    if (ownFile) return send(res, 200, ownFile.type, ownFile.body);
    const katex = own?.startsWith('katex/') ? await katexFile(own.slice('katex/'.length)) : null;
    if (katex) return send(res, 200, katex.type, katex.body, { 'Cache-Control': 'max-age=86400' });
    const before = own?.startsWith('before/') ? compare.before() : null;
    if (own?.startsWith('before/') && before === null) return send(res, 404, 'text/plain; charset=utf-8', 'This folder is not a checkout with a "before".\n');
    const side: Side = before ? 'before' : 'after';
    const shown = before ?? site;
    const route = shown.route(before ? `/${path.slice(BEFORE_PREFIX.length + 1)}` : path);
    const html = (status: number, body: string) => send(res, status, 'text/html; charset=utf-8', body, { 'Content-Security-Policy': PAGE_CSP });
    if (route.kind === 'home') {
      const only = shown.spaces.length === 1 ? shown.firstPage(shown.spaces[0]!) : null;
      if (only) {
        res.writeHead(302, { ...COMMON_HEADERS, Location: shown.urls.of(only) }).end();
        return;
      }
      return html(200, homeDocument(shown));
    }
    if (route.kind === 'missing') return html(404, notFoundDocument(shown, path));
    // Checked at every request: the file may have become a symlink (or a folder on its way a
    // link out of the folder) since the preview read it.
    const abs = shown.realPathInside(route.rootPath);
    if (abs === null) return html(404, notFoundDocument(shown, path));
    if (route.kind === 'page') {
      const t0 = performance.now();
      const body = pageDocument(shown, route.rootPath, compare.bar(side, route.rootPath));
      res.setHeader('Server-Timing', `render;dur=${(performance.now() - t0).toFixed(1)}`);
      return html(200, body);
    }
    const type = IMAGE_TYPES[extname(route.rootPath).toLowerCase()];
    const bytes = await readFile(abs).catch(() => null);
    if (!bytes) return html(404, notFoundDocument(shown, path));
    const name = encodeURIComponent(route.rootPath.slice(route.rootPath.lastIndexOf('/') + 1));
    send(res, 200, type ?? 'application/octet-stream', bytes, {
      'Content-Security-Policy': FILE_CSP,
      ...(type ? {} : { 'Content-Disposition': `attachment; filename*=UTF-8''${name}` }),
    });
  }

  const watcher = await watchFolder(options.dir, (paths) => {
    let changed = false;
    for (const p of paths) changed = site.fileChanged(p) || changed;
    if (!changed) return;
    for (const stream of streams) stream.write(`event: change\ndata: ${site.version}\n\n`);
  });

  const loopback = await startLoopbackServer({
    name: 'preview',
    port: options.port,
    log,
    secret,
    refusal: 'Quire refused this request: it needs the secret printed when `quire preview` started. Open the exact address from its first output line.\n',
    failure: 'Quire could not render this page; see the terminal.\n',
    handle,
  }).catch(async (e: unknown) => {
    await watcher.close();
    throw e;
  });
  // Load the renderer and build the navigation and the space-wide checks now, while the writer opens the address, not on the first page view.
  setImmediate(() => {
    const first = site.spaces[0] && site.firstPage(site.spaces[0]);
    if (first) {
      try {
        preloadRenderer();
        pageDocument(site, first);
      } catch (e) {
        log(`preview: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  });
  let closed = false;
  return {
    url: loopback.url,
    origin: loopback.origin,
    site,
    async close() {
      if (closed) return;
      closed = true;
      await watcher.close();
      for (const stream of streams) stream.end();
      await loopback.close();
    },
  };
}

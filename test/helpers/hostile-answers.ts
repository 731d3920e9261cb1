/**
 * Answers a hostile server (or proxy) sends, for `rewritingProxy`'s `respond`: compression bombs,
 * a body that never ends, an answer dribbled a byte at a time, lists that never end. Each is made
 * as it is sent, from a repeated buffer: nothing of its decoded size is ever held in memory, and
 * it stops as soon as the client hangs up.
 */
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import type { Exchange, Rewritten } from './rewriting-proxy';

export type BombEncoding = 'br' | 'gzip' | 'deflate';

const GiB = 1024 ** 3;

/** `total` zero bytes, made as they are read. */
function zeros(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

/**
 * A 200 whose body, a few KB per GB on the wire, decodes to `decodedBytes` of zeros (4 GiB by
 * default): brotli, gzip or deflate, compressed as it is sent.
 */
export function bomb(encoding: BombEncoding, decodedBytes = 4 * GiB): Rewritten {
  return {
    respond: (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      const source = zeros(decodedBytes);
      const compress =
        encoding === 'br'
          ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })
          : encoding === 'gzip'
            ? createGzip({ level: 1 })
            : createDeflate({ level: 1 });
      let sent = 0;
      compress.on('data', (c: Buffer) => (sent += c.length));
      stopWhenClosed(res, source, compress);
      source.pipe(compress).pipe(res);
      res.on('close', () => bombWireBytes.push(sent));
    },
  };
}

/** Wire bytes each bomb had sent when its client hung up (a test may show how small the bomb is). */
export const bombWireBytes: number[] = [];

/** A 200 whose plain body goes on (up to `totalBytes`, 4 GiB by default: for all the client can tell, forever). */
export function endlessBody(totalBytes = 4 * GiB): Rewritten {
  return {
    respond: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const source = zeros(totalBytes);
      stopWhenClosed(res, source);
      source.pipe(res);
    },
  };
}

/** A 200 that sends its headers and then one space every `everyMs`, forever: the slowloris answer. */
export function dribble(everyMs: number): Rewritten {
  return {
    respond: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), everyMs);
      res.on('close', () => clearInterval(timer));
    },
  };
}

/**
 * A list answer that never ends: each page points to a fresh next page. With `fresh`, each page
 * also lists `perPage` items never seen before (copies of the real first item under new ids);
 * without, it lists the real page's items again.
 */
export function endlessPages(options: { fresh: boolean; perPage?: number }): (exchange: Exchange) => Rewritten {
  let served = 0;
  let first: { id: string }[] | undefined;
  return (exchange) => {
    // The real first page; later pages are asked for by tokens only this proxy knows.
    first ??= (JSON.parse(exchange.body.toString('utf8')) as { items: { id: string }[] }).items;
    const n = ++served;
    const items = options.fresh
      ? Array.from({ length: options.perPage ?? 1000 }, (_, i) => ({ ...first![0]!, id: `s${n}x${i}`, title: `Space ${n}.${i}` }))
      : first;
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items, next: { page: `page-${n + 1}-${Math.random().toString(36).slice(2)}` } }),
    };
  };
}

function stopWhenClosed(res: ServerResponse, ...streams: { destroy(): void }[]): void {
  res.on('close', () => {
    for (const s of streams) s.destroy();
  });
}

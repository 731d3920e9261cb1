/**
 * Reading one answer's body with a limit. What a server sends is counted as it arrives, on the
 * wire and once decoded (gzip, deflate and br are decoded as a stream, chunk by chunk), and the
 * connection is closed as soon as either count passes the limit: a few KB of brotli that decode
 * to gigabytes, or a body that never ends, cost the limit and no more.
 *
 * The limit is per answer, and a client reads several at once: past 1 MiB, answers grow one
 * at a time (LargeAnswers), the others paused until it is done. Eight bombs at once then cost
 * one limit, not eight.
 *
 * An answer is held once: copied as it arrives into one buffer of its announced length (a
 * revision of 20,000 pages is ~15 MB; chunks and then their concatenation would be twice that),
 * and nothing of it stays with the connection once it is read (a kept-alive socket may sit idle
 * for the rest of the cycle, holding its last answer's listeners).
 */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';

/** The body went past `limitBytes`; the transport turns this into an AnswerTooLargeError naming the request. */
export class OverLimit extends Error {
  constructor(
    readonly limitBytes: number,
    /** The content encoding when the decoded body went past the limit (not the bytes on the wire). */
    readonly decodedFrom: string | undefined,
  ) {
    super(`the answer is larger than ${limitBytes} bytes`);
    this.name = 'OverLimit';
  }
}

const CUT_SHORT = 'the connection closed before the whole answer came';

/** What an answer grows to before it needs the client's one large-answer turn: more than nearly any real answer. */
const LARGE_ANSWER_BYTES = 1024 * 1024;

/** Lets one answer at a time (per client) grow past LARGE_ANSWER_BYTES; the others wait for their turn. */
export class LargeAnswers {
  private holder: object | undefined;
  private readonly queue: { reader: object; grant: () => void }[] = [];

  /** Undefined when `reader` may grow now, else a promise of its turn. */
  turn(reader: object): Promise<void> | undefined {
    if (this.holder === undefined) this.holder = reader;
    if (this.holder === reader) return undefined;
    return new Promise((grant) => this.queue.push({ reader, grant }));
  }

  /** `reader` is done (read whole, or given up): the next one waiting grows. */
  done(reader: object): void {
    const queued = this.queue.findIndex((w) => w.reader === reader);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (this.holder !== reader) return;
    const next = this.queue.shift();
    this.holder = next?.reader;
    next?.grant();
  }
}

export interface BodyLimit {
  /** The most the body may be, on the wire and decoded. */
  maxBytes: number;
  /** The client's: past LARGE_ANSWER_BYTES, one answer at a time. */
  large: LargeAnswers;
}

/** The body of a node:http answer, decoded; rejects with OverLimit past `maxBytes`, with the cause otherwise. */
export function readLimited(res: IncomingMessage, { maxBytes, large }: BodyLimit): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
    const body = new BodyBytes(encoding === '' || encoding === 'identity' ? Number(res.headers['content-length']) : Number.NaN, maxBytes);
    const self = {};
    let decodedBytes = 0;
    let wireBytes = 0;
    let settled = false;
    /** Waiting for the large-answer turn: nothing is read meanwhile. */
    let waiting = false;
    let decoder: Transform | undefined;

    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      large.done(self);
      return true;
    };
    const fail = (err: Error): void => {
      if (!settle()) return;
      body.drop();
      decoder?.destroy();
      res.destroy();
      reject(err);
    };
    const keep = (chunk: Buffer): void => {
      if (settled) return;
      decodedBytes += chunk.length;
      if (decodedBytes > maxBytes) {
        fail(new OverLimit(maxBytes, decoder ? encoding : undefined));
        return;
      }
      body.add(chunk);
      if (waiting || decodedBytes <= LARGE_ANSWER_BYTES) return;
      const turn = large.turn(self);
      if (!turn) return;
      waiting = true;
      decoder?.pause();
      res.pause();
      void turn.then(() => {
        waiting = false;
        if (settled) return;
        decoder?.resume();
        res.resume();
      });
    };
    const finish = (): void => {
      if (settle()) resolve(body.take());
    };

    // An announced length over the limit is refused before a byte of the body is read.
    if (Number(res.headers['content-length']) > maxBytes) return fail(new OverLimit(maxBytes, undefined));
    try {
      decoder = decoderFor(encoding);
    } catch (err) {
      return fail(err as Error);
    }
    if (decoder) {
      decoder.on('data', keep);
      decoder.on('error', fail);
      decoder.on('end', finish);
      decoder.on('drain', () => {
        if (!waiting) res.resume();
      });
    }
    res.on('data', (chunk: Buffer) => {
      wireBytes += chunk.length;
      if (wireBytes > maxBytes) return fail(new OverLimit(maxBytes, undefined));
      if (!decoder) return keep(chunk);
      if (!decoder.write(chunk)) res.pause();
    });
    res.on('error', fail);
    res.on('aborted', () => fail(new Error(CUT_SHORT)));
    // Destroyed while paused (an abort, a timeout) ends with no other event.
    res.on('close', () => {
      if (!res.complete) fail(new Error(CUT_SHORT));
    });
    res.on('end', () => {
      if (!res.complete) return fail(new Error(CUT_SHORT));
      if (decoder) decoder.end();
      else finish();
    });
  });
}

/**
 * An answer's bytes as they arrive: copied into one buffer of the announced length when the
 * length is known (and within the limit), else kept as chunks and joined once at the end.
 */
class BodyBytes {
  private whole: Buffer | null;
  private filled = 0;
  private chunks: Buffer[] = [];

  constructor(announced: number, maxBytes: number) {
    this.whole = Number.isSafeInteger(announced) && announced > 0 && announced <= maxBytes ? Buffer.allocUnsafe(announced) : null;
  }

  add(chunk: Buffer): void {
    if (this.whole !== null && this.filled + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.filled);
      this.filled += chunk.length;
      return;
    }
    // More than announced (the connection ends it as cut short, or a server that miscounted): keep it all.
    if (this.whole !== null) this.chunks.push(this.whole.subarray(0, this.filled));
    this.whole = null;
    this.chunks.push(chunk);
  }

  /** The bytes read, once; nothing is held after. */
  take(): Buffer {
    const bytes = this.whole !== null ? this.whole.subarray(0, this.filled) : Buffer.concat(this.chunks);
    this.drop();
    return bytes;
  }

  drop(): void {
    this.whole = null;
    this.chunks = [];
  }
}

/** The body of a fetch Response (which decodes it itself), read with the same limit. */
export async function readFetchLimited(response: Response, { maxBytes, large }: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new OverLimit(maxBytes, undefined);
  }
  const self = {};
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) {
        await reader!.cancel().catch(() => undefined);
        throw new OverLimit(maxBytes, response.headers.get('content-encoding') ?? undefined);
      }
      chunks.push(next.value);
      if (total > LARGE_ANSWER_BYTES) await large.turn(self);
    }
  } finally {
    large.done(self);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/**
 * A streaming decoder for the encodings the client asks for (`accept-encoding: gzip, deflate, br`);
 * none for identity. node:zlib loads with the first encoded answer.
 */
function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return process.getBuiltinModule('node:zlib').createGunzip();
    case 'deflate':
      return process.getBuiltinModule('node:zlib').createInflate();
    case 'br':
      return process.getBuiltinModule('node:zlib').createBrotliDecompress();
    default:
      throw new Error(`the answer is encoded as "${encoding}", which Quire cannot read`);
  }
}

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
 * An answer is held once, and nothing of it stays with the connection once it is read (a
 * kept-alive socket may sit idle for the rest of the cycle, holding its last answer's listeners):
 * - an API answer is text: past 64 KB it is decoded as it arrives, piece by piece (a revision of
 *   20,000 pages is ~15 MB of JSON). Held as bytes, it took one block of malloc's that size, and
 *   glibc, once such a block is freed, keeps up to twice its size of freed memory for the rest of
 *   the process: ~15 MB more at the peak of a large pull.
 * - a download is bytes: copied as it arrives into one buffer of its announced length (chunks and
 *   then their concatenation would be twice that).
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

/**
 * The body came whole but cannot be read: an encoding the client did not ask for (`gzip, gzip`),
 * or bytes that do not decode as the one announced. Not a dropped connection, so not retried;
 * the transport turns this into a MalformedAnswerError naming the request.
 */
export class UnreadableBody extends Error {
  constructor(
    /** As the server named it. */
    readonly encoding: string,
    readonly kind: 'unsupported' | 'undecodable',
  ) {
    super(kind === 'unsupported' ? `the answer is encoded as "${encoding}"` : `the answer does not decode as ${encoding}`);
    this.name = 'UnreadableBody';
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

/** How an answer's body is read: as UTF-8 text (an API answer) or as bytes (a download). */
export type BodyForm = 'text' | 'bytes';

/** A body read as `form` says: a string for text, bytes for bytes. */
export type Body<F extends BodyForm> = F extends 'text' ? string : Uint8Array<ArrayBuffer>;

/** The body of a node:http answer, decoded; rejects with OverLimit past `maxBytes`, with the cause otherwise. */
export function readLimited<F extends BodyForm>(res: IncomingMessage, { maxBytes, large }: BodyLimit, form: F): Promise<Body<F>> {
  return new Promise((resolve, reject) => {
    const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
    const announced = encoding === '' || encoding === 'identity' ? Number(res.headers['content-length']) : Number.NaN;
    const body = heldAs(form, announced, maxBytes);
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
    } catch {
      return fail(new UnreadableBody(encoding, 'unsupported'));
    }
    if (decoder) {
      decoder.on('data', keep);
      decoder.on('error', () => fail(new UnreadableBody(encoding, 'undecodable')));
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

/** A body as it arrives, and then once whole. */
interface Held<T> {
  add(chunk: Buffer): void;
  /** The body read, once; nothing is held after. */
  take(): T;
  drop(): void;
}

function heldAs<F extends BodyForm>(form: F, announced: number, maxBytes: number): Held<Body<F>> {
  const held: Held<string> | Held<Uint8Array<ArrayBuffer>> = form === 'text' ? new BodyText(announced) : new BodyBytes(announced, maxBytes);
  // (TypeScript does not narrow F from `form`.)
  return held as unknown as Held<Body<F>>;
}

/**
 * An answer's bytes as they arrive: copied into one buffer of the announced length when the
 * length is known (and within the limit), else kept as chunks and joined once at the end.
 */
class BodyBytes implements Held<Uint8Array<ArrayBuffer>> {
  private whole: Buffer | null;
  private filled = 0;
  private chunks: Buffer[] = [];
  /** The bytes held. */
  size = 0;

  constructor(announced: number, maxBytes: number) {
    this.whole = Number.isSafeInteger(announced) && announced > 0 && announced <= maxBytes ? Buffer.allocUnsafe(announced) : null;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.whole !== null && this.filled + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.filled);
      this.filled += chunk.length;
      return;
    }
    // More than announced (the connection ends it as cut short, or a server that miscounted): keep it all.
    if (this.whole !== null) this.chunks.push(this.whole.subarray(0, this.filled));
    this.whole = null;
    this.filled = 0;
    this.chunks.push(chunk);
  }

  take(): Uint8Array<ArrayBuffer> {
    const bytes = this.whole !== null ? this.whole.subarray(0, this.filled) : Buffer.concat(this.chunks);
    this.drop();
    return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  }

  drop(): void {
    this.whole = null;
    this.filled = 0;
    this.size = 0;
    this.chunks = [];
  }
}

/** What a text answer holds as bytes before it is decoded as it arrives: under glibc's smallest threshold for a block of its own. */
const TEXT_BYTES_HELD = 64 * 1024;

/**
 * An answer's text as it arrives: up to TEXT_BYTES_HELD its bytes, decoded once whole (nearly
 * every answer: one decode, the fastest); past it, decoded chunk by chunk as they come.
 */
class BodyText implements Held<string> {
  private bytes: BodyBytes;
  private decoder: TextDecoder | null = null;
  private pieces: string[] = [];

  constructor(announced: number) {
    this.bytes = new BodyBytes(announced, TEXT_BYTES_HELD);
  }

  add(chunk: Buffer): void {
    if (this.decoder === null) {
      if (this.bytes.size + chunk.length <= TEXT_BYTES_HELD) {
        this.bytes.add(chunk);
        return;
      }
      this.decoder = new TextDecoder();
      this.pieces.push(this.decoder.decode(this.bytes.take(), { stream: true }));
    }
    this.pieces.push(this.decoder.decode(chunk, { stream: true }));
  }

  take(): string {
    const text = this.decoder === null ? new TextDecoder().decode(this.bytes.take()) : this.pieces.join('') + this.decoder.decode();
    this.drop();
    return text;
  }

  drop(): void {
    this.bytes.drop();
    this.decoder = null;
    this.pieces = [];
  }
}

/** The body of a fetch Response (which decodes it itself), read with the same limit. */
export async function readFetchLimited<F extends BodyForm>(response: Response, { maxBytes, large }: BodyLimit, form: F): Promise<Body<F>> {
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
  return (form === 'text' ? new TextDecoder().decode(body) : body) as Body<F>;
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
      throw new UnreadableBody(encoding, 'unsupported');
  }
}

/** Hex sha256. node:crypto loads with the first hash: a command that hashes nothing (status over an unchanged folder) does not load it. */
export function sha256(data: string | Uint8Array | Iterable<Uint8Array>): string {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  if (typeof data === 'string' || data instanceof Uint8Array) return hash.update(data).digest('hex');
  for (const block of data) hash.update(block);
  return hash.digest('hex');
}

/** `blocks` passed on as they are read, hashed on the way: `digest()`, hex sha256, once all were read. */
export function hashedOnTheWay(blocks: Iterable<Uint8Array>): { blocks: Generator<Uint8Array>; digest: () => string } {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  function* pass(): Generator<Uint8Array> {
    for (const block of blocks) {
      hash.update(block);
      yield block;
    }
  }
  return { blocks: pass(), digest: () => hash.digest('hex') };
}

/** The characters of text encoded at a time by utf8Blocks: at most 96 KB of UTF-8. */
const BLOCK_CHARS = 32 * 1024;

/**
 * The UTF-8 of `parts` joined, a block at a time. A text of several MB (SUMMARY.md of a large
 * space) turned into bytes whole takes a block of malloc's that size, and glibc, once such a
 * block is freed, keeps up to twice its size of freed memory for the rest of the process.
 */
export function* utf8Blocks(parts: Iterable<string>): Generator<Buffer> {
  let pending = '';
  for (const part of parts) {
    pending += part;
    while (pending.length >= BLOCK_CHARS) {
      // A surrogate pair stays in one block (each half alone would encode as U+FFFD).
      const cut = isHighSurrogate(pending.charCodeAt(BLOCK_CHARS - 1)) ? BLOCK_CHARS - 1 : BLOCK_CHARS;
      yield Buffer.from(pending.slice(0, cut));
      pending = pending.slice(cut);
    }
  }
  if (pending !== '') yield Buffer.from(pending);
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * The texts page history keeps, each stored once (keyed by its sha256) and raw-deflated.
 *
 * A page's next text is deflated with its keyframe (a text stored whole) as the preset
 * dictionary when that comes out much smaller than deflating it alone, so a version that
 * changes a paragraph costs about that paragraph. A text is at most one step from a
 * keyframe: reading any version inflates at most twice. A keyframe is kept while any text
 * stored against it is.
 */
import type { statementCache } from './review/statements';

/** node:zlib, loaded when a text is first stored or read (a command that reads no history never loads it). */
const zlib = () => process.getBuiltinModule('node:zlib');

/** A delta this small against the text is kept without trying a whole deflate. */
const SURELY_SMALL = 1 / 8;

export class HistoryReadError extends Error {
  override name = 'HistoryReadError';
}

export function sha256(text: string): Buffer {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest();
}

export class HistoryTexts {
  constructor(private readonly sql: ReturnType<typeof statementCache>) {}

  /** Stores a text once (against `keyframe`, the page's latest keyframe, when that pays); returns its id. */
  store(text: string, hash: Buffer, keyframe: number | null): number {
    const existing = this.sql(`SELECT id FROM history_blobs WHERE hash = ?`).get(hash) as { id: number } | undefined;
    if (existing) return existing.id;
    const bytes = Buffer.from(text, 'utf8');
    let data: Buffer | null = null;
    let base: number | null = null;
    if (keyframe !== null) {
      const dictionary = Buffer.from(this.text(keyframe), 'utf8');
      const delta = zlib().deflateRawSync(bytes, { dictionary });
      if (delta.length < bytes.length * SURELY_SMALL) {
        data = delta;
        base = keyframe;
      } else {
        const whole = zlib().deflateRawSync(bytes);
        [data, base] = delta.length * 2 < whole.length ? [delta, keyframe] : [whole, null];
      }
    }
    data ??= zlib().deflateRawSync(bytes);
    const info = this.sql(`INSERT INTO history_blobs (hash, size, base, data) VALUES (?, ?, ?, ?)`).run(hash, bytes.length, base, data);
    return Number(info.lastInsertRowid);
  }

  text(id: number): string {
    const row = this.sql(`SELECT base, data FROM history_blobs WHERE id = ?`).get(id) as { base: number | null; data: Buffer } | undefined;
    if (!row) throw new HistoryReadError(`A page version (text ${id}) is missing from the mirror's history.`);
    try {
      const bytes =
        row.base !== null ? zlib().inflateRawSync(row.data, { dictionary: Buffer.from(this.text(row.base), 'utf8') }) : zlib().inflateRawSync(row.data);
      return bytes.toString('utf8');
    } catch (err) {
      if (err instanceof HistoryReadError) throw err;
      throw new HistoryReadError(`A page version (text ${id}) in the mirror's history is damaged and cannot be read: ${(err as Error).message}.`, {
        cause: err,
      });
    }
  }

  /** Drops the texts among `ids` (and keyframes they free) that no version and no other text needs any more. */
  collect(ids: number[]): void {
    const queue = [...new Set(ids)];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (this.sql(`SELECT 1 FROM history_versions WHERE blob = ? LIMIT 1`).get(id)) continue;
      if (this.sql(`SELECT 1 FROM history_blobs WHERE base = ? LIMIT 1`).get(id)) continue;
      const row = this.sql(`SELECT base FROM history_blobs WHERE id = ?`).get(id) as { base: number | null } | undefined;
      if (!row) continue;
      this.sql(`DELETE FROM history_blobs WHERE id = ?`).run(id);
      if (row.base !== null) queue.push(row.base);
    }
  }

  /** Distinct texts, their bytes, and the bytes stored. */
  stats(): { texts: number; textBytes: number; storedBytes: number } {
    const b = this.sql(`SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS size, COALESCE(SUM(length(data)), 0) AS stored FROM history_blobs`).get() as {
      n: number;
      size: number;
      stored: number;
    };
    return { texts: b.n, textBytes: b.size, storedBytes: b.stored };
  }
}

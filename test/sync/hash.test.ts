/**
 * A text of several MB (SUMMARY.md of a large space) is encoded and hashed a block at a time:
 * the blocks must make the same bytes, and the same hash, as the whole text would.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashedOnTheWay, sha256, utf8Blocks } from '../../src/main/core/sync/hash';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Text with everything that encodes unlike ASCII: two- and three-byte characters, surrogate pairs, lone surrogates. */
const unit = fc.constantFrom('a', '\n', 'é', '日', '😀', '\ud83d', '\ude00');
const part = fc.oneof(
  fc.string({ unit, maxLength: 40 }),
  fc.string({ unit, minLength: 30_000, maxLength: 70_000 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

describe('utf8Blocks', () => {
  it('makes the bytes of the whole text, in blocks of at most 96 KB', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const blocks = [...utf8Blocks(parts)];
        expect(Buffer.concat(blocks).equals(Buffer.from(parts.join('')))).toBe(true);
        for (const block of blocks) expect(block.length).toBeLessThanOrEqual(96 * 1024);
      }),
      { seed: 20261126, numRuns: 60, endOnFailure: true },
    );
  });

  it('keeps a surrogate pair that falls on a block boundary in one block', () => {
    const text = `${'a'.repeat(32 * 1024 - 1)}😀${'b'.repeat(10)}`;
    const blocks = [...utf8Blocks([text])];
    expect(blocks.length).toBe(2);
    expect(Buffer.concat(blocks).toString()).toBe(text);
  });

  it('hashes to what the whole text hashes to, read or passed on', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const whole = sha(Buffer.from(parts.join('')));
        expect(sha256(utf8Blocks(parts))).toBe(whole);
        const hashed = hashedOnTheWay(utf8Blocks(parts));
        const passed = Buffer.concat([...hashed.blocks]);
        expect(hashed.digest()).toBe(whole);
        expect(sha(passed)).toBe(whole);
      }),
      { seed: 7, numRuns: 30, endOnFailure: true },
    );
  });
});

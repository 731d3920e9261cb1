/** Decoding file bytes as UTF-8 without losing anything: invalid bytes are found, never replaced. */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text, or the 1-based line of the first byte sequence that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalidLine: number } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { invalidLine: lineOf(bytes, firstInvalidByte(bytes)) };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    // Overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
    i += length;
  }
  return bytes.length;
}

function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

import { describe, expect, it } from 'vitest';
import { terminalLine, terminalSafe } from '../../../src/main/hosts/cli/terminal-text';

describe('terminal-safe text', () => {
  it('shows escape sequences, other control characters and bidi overrides as visible escapes', () => {
    expect(terminalSafe('a\u001b[31mred\u0007 \u202eevil\u2066 \u0085 \u007f')).toBe('a\\u{1b}[31mred\\u{7} \\u{202e}evil\\u{2066} \\u{85} \\u{7f}');
  });

  it('keeps text, tabs and newlines; terminalLine puts it on one line', () => {
    expect(terminalSafe('Café 👍\tx\ny')).toBe('Café 👍\tx\ny');
    expect(terminalLine('one\r\ntwo\tthree\u001b')).toBe('one two three\\u{1b}');
  });
});

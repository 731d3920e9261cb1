import { describe, expect, it } from 'vitest';
import { safeField, safeLine, terminalSafe } from '../../../src/main/hosts/cli/terminal-text';

describe('terminal-safe text', () => {
  it('shows escape sequences, other control characters and bidi overrides as visible escapes', () => {
    expect(safeField('a\u001b[31mred\u0007 \u202eevil\u2066 \u0085 \u007f')).toBe('a\\u001b[31mred\\u0007 \\u202eevil\\u2066 \\u0085 \\u007f');
  });

  it('terminalSafe keeps text, tabs and newlines; safeField escapes them so a field stays on its line', () => {
    expect(terminalSafe('Café 👍\tx\ny\u001b')).toBe('Café 👍\tx\ny\\u001b');
    expect(safeField('one\ntwo\tthree')).toBe('one\\u000atwo\\u0009three');
  });

  it('safeLine folds line breaks and tabs into spaces, for snippets where breaks carry no meaning', () => {
    expect(safeLine('one\r\ntwo\tthree\u001b')).toBe('one two three\\u001b');
    expect(safeLine(null)).toBe('');
  });
});

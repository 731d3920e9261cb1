/** A change request's subject is one line of plain text (issue 27, item 21). */
import { describe, expect, it } from 'vitest';
import { cleanSubject, oneLineSubject, subjectProblem } from '../../src/shared/subject';

describe('a subject', () => {
  it('goes on one line: each line break (and the spaces around it) and each tab become one space', () => {
    expect(oneLineSubject('  Fix\r\nthe\n\n  intro\u2028now\tplease \n')).toBe('Fix the intro now please');
    expect(oneLineSubject('Stays as it is')).toBe('Stays as it is');
  });

  it('with a control character is refused, naming it and where it is; empty or over 100 characters too', () => {
    expect(subjectProblem('Red \u001b[31m')).toBe(
      'holds a control character (U+001B, an escape code) at character 5: a subject is one line of plain text; remove it',
    );
    expect(subjectProblem('x\u009b1m')).toMatch(/^holds a control character \(U\+009B, an escape code\) at character 2/);
    expect(subjectProblem('bell\u0007')).toMatch(/^holds a control character \(U\+0007\) at character 5/);
    expect(subjectProblem('')).toBe('must be 1 to 100 characters; it has 0');
    expect(subjectProblem('x'.repeat(101))).toBe('must be 1 to 100 characters; it has 101');
    expect(subjectProblem('Add “Intro” 🎉')).toBeNull();
  });

  it('that Quire writes itself has its control characters removed', () => {
    expect(cleanSubject('Edit “A\u001b[2Jb”\nnow')).toBe('Edit “A[2Jb” now');
  });
});

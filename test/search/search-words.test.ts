/**
 * How a person's search words are read, one rule for the app's search box and `quire search`
 * (src/shared/search-query.ts): a bare last word also finds the words it starts.
 */
import { describe, expect, it } from 'vitest';
import { prefixLastWord } from '../../src/shared/search-query';

describe('a bare last word is a prefix', () => {
  it('searches the last word as a prefix', () => {
    expect(prefixLastWord('instal')).toBe('instal*');
    expect(prefixLastWord('getting sta')).toBe('getting sta*');
    expect(prefixLastWord('title:inst')).toBe('title:inst*');
    expect(prefixLastWord('(café OR thé')).toBe('(café OR thé*');
  });

  it('leaves a finished word (typed space), a phrase being typed, one letter and operators as they are', () => {
    expect(prefixLastWord('install ')).toBe('install');
    expect(prefixLastWord('"getting sta')).toBe('"getting sta');
    expect(prefixLastWord('"getting started"')).toBe('"getting started"');
    expect(prefixLastWord('a')).toBe('a');
    expect(prefixLastWord('install OR')).toBe('install OR');
    expect(prefixLastWord('inst*')).toBe('inst*');
    expect(prefixLastWord('   ')).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { asYouType } from '../../src/renderer/lib/search-query';

describe('what the search box sends as you type', () => {
  it('searches the unfinished last word as a prefix', () => {
    expect(asYouType('inst')).toBe('inst*');
    expect(asYouType('getting sta')).toBe('getting sta*');
    expect(asYouType('title:inst')).toBe('title:inst*');
    expect(asYouType('(café OR thé')).toBe('(café OR thé*');
  });

  it('leaves a finished word, a phrase being typed, one letter and operators as they are', () => {
    expect(asYouType('install ')).toBe('install');
    expect(asYouType('"getting sta')).toBe('"getting sta');
    expect(asYouType('"getting started"')).toBe('"getting started"');
    expect(asYouType('a')).toBe('a');
    expect(asYouType('install OR')).toBe('install OR');
    expect(asYouType('inst*')).toBe('inst*');
    expect(asYouType('   ')).toBe('');
  });
});

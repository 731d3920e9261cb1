/**
 * The name GitBook's Git Sync gives a reusable content's file, from its title: the names below
 * are GitBook's own (GitbookIO/public-docs and other public Git Sync repositories).
 */
import { expect, it } from 'vitest';
import { includeName } from '../../../src/main/core/sync/space-extras';

it.each([
  ['OpenAPI availability hint', 'openapi-availability-hint'],
  ['This feature is available o...', 'this-feature-is-available-o...'],
  ['Time complexity / space com...', 'time-complexity-space-com...'],
  ['Site header', 'site-header'],
  ['Untitled', 'untitled'],
  ['  ', 'untitled'],
  ['../..', 'untitled'],
])('“%s” is %s.md', (title, name) => {
  expect(includeName(title)).toBe(name);
});

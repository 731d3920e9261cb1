/**
 * The record of the API address a user gave for each folder (issue 27, item 7) lives outside the
 * folders, private to the user, one entry per folder whatever path spells it.
 */
import { mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FileGivenAddresses, userConfigDir } from '../../src/main/core/secrets';

const temp = () => mkdtempSync(join(tmpdir(), 'quire-given-'));

it('keeps one private entry per folder, whatever path spells it, and nothing in the folder', () => {
  const config = join(temp(), 'api-addresses');
  const folder = join(temp(), 'Docs');
  mkdirSync(folder);
  const link = join(temp(), 'link-to-docs');
  symlinkSync(folder, link);
  const given = new FileGivenAddresses(config);

  expect(given.get(folder)).toBeNull();
  given.set(link, 'https://api.example.com');
  given.set(folder, 'https://api.gitbook.com');

  expect([given.get(folder), given.get(link)]).toEqual(['https://api.gitbook.com', 'https://api.gitbook.com']);
  const [file, ...more] = readdirSync(config);
  expect(more).toEqual([]);
  expect(statSync(config).mode & 0o777).toBe(0o700);
  expect(statSync(join(config, file!)).mode & 0o777).toBe(0o600);
  expect(readdirSync(folder)).toEqual([]);
});

it('an entry naming another folder, or unreadable, gives nothing', () => {
  const config = join(temp(), 'api-addresses');
  const [a, b] = [temp(), temp()];
  const given = new FileGivenAddresses(config);
  given.set(a, 'https://api.gitbook.com');
  const [file] = readdirSync(config);
  writeFileSync(join(config, file!), JSON.stringify({ folder: b, apiUrl: 'https://other.example' }));
  expect(given.get(a)).toBeNull();
  writeFileSync(join(config, file!), 'not json');
  expect(given.get(a)).toBeNull();
});

it('lives in XDG_CONFIG_HOME when set, else in the system’s own place', () => {
  expect(userConfigDir({ XDG_CONFIG_HOME: '/x/config' })).toBe('/x/config/quire');
  if (process.platform === 'linux') expect(userConfigDir({ HOME: '/home/me' })).toMatch(/\/\.config\/quire$/);
});

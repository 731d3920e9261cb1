/** Where each file of the space goes under `.gitbook/assets/`. */
import { LayoutError } from './tree';
import { ASSETS_FOLDER } from './files';
import { byteLength, FolderNames, isCandidate, MAX_SEGMENT_BYTES, nameCandidates, type NameRules, PORTABLE_NAMES } from './names';

export interface AssetFile {
  id: string;
  name: string;
}

function splitExtension(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { base: name, extension: '' };
  const ext = name.slice(dot + 1);
  if (!/^[A-Za-z0-9]{1,16}$/.test(ext)) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: `.${ext}` };
}

/**
 * Plans `.gitbook/assets/<name>` for each file (returns file id -> relative path): its name as
 * GitBook has it, unless the volume cannot hold it (names.ts). The byte limit applies to the
 * name before the extension. Clashes: the file that had the path in `previous` keeps it, then
 * input order; others get `<base>-<short id>.<ext>`.
 */
export function planAssetPaths(files: readonly AssetFile[], options: { previous?: ReadonlyMap<string, string>; rules?: NameRules } = {}): Map<string, string> {
  const rules = options.rules ?? PORTABLE_NAMES;
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.id)) throw new LayoutError(`File id "${f.id}" appears twice in the file list; every file needs its own id.`);
    seen.add(f.id);
  }
  const folder = new FolderNames(rules);
  const names = new Map<string, string>();
  const candidatesOf = (f: AssetFile) => {
    const { base, extension } = splitExtension(String(f.name ?? '').normalize('NFC'));
    const budget = MAX_SEGMENT_BYTES + byteLength(extension);
    return nameCandidates(base || 'file', f.id, budget, rules, extension === '' ? 'folder' : 'file', extension);
  };
  // The names an older Quire gave (spaces collapsed, edge dots and dashes cut): a file named so keeps its name.
  const legacyCandidatesOf = (f: AssetFile) => {
    const legacy = String(f.name ?? '')
      .normalize('NFC')
      .replace(/[\s\p{Z}]+/gu, ' ')
      .replace(/^[\s.-]+|[\s.-]+$/gu, '');
    const { base, extension } = splitExtension(legacy);
    return nameCandidates(
      base.replace(/^[\s.-]+|[\s.-]+$/gu, '') || 'file',
      f.id,
      MAX_SEGMENT_BYTES + byteLength(extension),
      PORTABLE_NAMES,
      'file',
      extension,
    );
  };
  const claim = (f: AssetFile, name: string): boolean => {
    if (!folder.isFree([name])) return false;
    folder.claim([name]);
    names.set(f.id, name);
    return true;
  };
  const prefix = `${ASSETS_FOLDER}/`;
  for (const f of files) {
    const before = options.previous?.get(f.id);
    if (before?.startsWith(prefix)) {
      const name = before.slice(prefix.length);
      if (isCandidate(name, candidatesOf(f)) || isCandidate(name, legacyCandidatesOf(f))) claim(f, name);
    }
  }
  for (const f of files) {
    if (names.has(f.id)) continue;
    for (const candidate of candidatesOf(f)) if (claim(f, candidate)) break;
  }
  return new Map(files.map((f) => [f.id, prefix + (names.get(f.id) as string)]));
}

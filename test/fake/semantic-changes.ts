/** Semantic changes between a revision and an earlier one (`.../revisions/{id}/changes`). */
import type { FileRec, PageRec, RevisionRec } from './model';
import type { Serializer } from './serialize';
import { pagePath, pagesInOrder } from './tree';

type Json = Record<string, unknown>;

export function semanticChanges(after: RevisionRec, before: RevisionRec | undefined, json: Serializer): Json[] {
  const changes: Json[] = [];
  const previous = before?.pages ?? new Map<string, PageRec>();
  const changedPage = (revision: RevisionRec, id: string): Json => {
    const page = revision.pages.get(id);
    return { id, type: page?.type ?? 'document', title: page?.title ?? '', path: pagePath(revision, id) };
  };

  for (const id of pagesInOrder(after)) {
    const now = after.pages.get(id);
    const old = previous.get(id);
    if (!now) continue;
    if (!old || !before) {
      changes.push({ type: 'page_created', page: changedPage(after, id) });
      continue;
    }
    if (now === old) continue;
    if (now.parentId !== old.parentId) {
      changes.push({
        type: 'page_moved',
        page: changedPage(after, id),
        parent: {
          ...(old.parentId !== null ? { before: changedPage(before, old.parentId) } : {}),
          ...(now.parentId !== null ? { after: changedPage(after, now.parentId) } : {}),
        },
      });
    }
    const attributes = pageAttributes(old, now);
    if (Object.keys(attributes).length > 0) changes.push({ type: 'page_edited', page: changedPage(after, id), attributes });
  }
  if (before) {
    for (const id of pagesInOrder(before)) {
      if (!after.pages.has(id)) changes.push({ type: 'page_deleted', page: changedPage(before, id) });
    }
  }

  const oldFiles = before?.files ?? new Map<string, FileRec>();
  for (const [id, file] of after.files) {
    const old = oldFiles.get(id);
    if (!old) changes.push({ type: 'file_created', file: changedFile(json, file) });
    else if (old !== file) changes.push({ type: 'file_edited', file: changedFile(json, file), attributes: fileAttributes(json, old, file) });
  }
  for (const [id, file] of oldFiles) {
    if (!after.files.has(id)) changes.push({ type: 'file_deleted', file: changedFile(json, file) });
  }
  return changes;
}

function pageAttributes(old: PageRec, now: PageRec): Json {
  const attributes: Json = {};
  const keys: Array<'title' | 'emoji' | 'slug' | 'description'> =
    now.type === 'link' ? ['title', 'emoji'] : now.type === 'group' ? ['title', 'emoji', 'slug'] : ['title', 'description', 'slug', 'emoji'];
  for (const key of keys) {
    if (old[key] !== now[key]) attributes[key] = { ...defined('before', old[key]), ...defined('after', now[key]) };
  }
  if (now.type === 'document' && old.documentId !== now.documentId) {
    attributes.document = { ...defined('before', old.documentId), ...defined('after', now.documentId) };
  }
  if (now.type === 'link' && old.href !== now.href) {
    attributes.target = { before: { kind: 'url', url: old.href ?? '' }, after: { kind: 'url', url: now.href ?? '' } };
  }
  return attributes;
}

function changedFile(json: Serializer, file: FileRec): Json {
  const { id, name, contentType, downloadURL } = json.file(file);
  return { id, name, contentType, downloadURL };
}

function fileAttributes(json: Serializer, old: FileRec, now: FileRec): Json {
  const attributes: Json = {};
  if (old.name !== now.name) attributes.name = { before: old.name, after: now.name };
  if (old.contentType !== now.contentType) attributes.contentType = { before: old.contentType, after: now.contentType };
  if (old.size !== now.size) attributes.size = { before: old.size, after: now.size };
  if (old.blobKey !== now.blobKey) attributes.downloadURL = { before: json.file(old).downloadURL, after: json.file(now).downloadURL };
  return attributes;
}

function defined(key: string, value: string | undefined): Json {
  return value === undefined ? {} : { [key]: value };
}

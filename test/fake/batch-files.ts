/** Files of the content batch (`insert_files`): where their bytes come from, their type, their blob key. */
import { createHash } from 'node:crypto';
import { ContentError } from './tree';

/** The API takes inline (base64) files up to 1 MB. */
export const MAX_BASE64_BYTES = 1024 * 1024;

export interface FileInput {
  name: string;
  contentType?: string;
  url?: string;
  base64?: string;
}

/**
 * The bytes of an `insert_files` entry. `base64` needs a `contentType` and at most 1 MB of bytes
 * (as the spec says); a `url` must be a downloadURL of this fake (it cannot fetch the web).
 */
export function fileSource(
  file: FileInput,
  blobForUrl: (url: string) => { bytes: Buffer; contentType: string } | undefined,
): { bytes: Buffer; contentType?: string } {
  if (file.base64 !== undefined) {
    if (file.contentType === undefined) {
      throw new ContentError(`file "${file.name}" is sent as base64 without a contentType; the API requires \`contentType\` with \`base64\``);
    }
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(file.base64)) throw new ContentError(`file "${file.name}": base64 content is not valid base64`);
    const bytes = Buffer.from(file.base64, 'base64');
    if (bytes.length > MAX_BASE64_BYTES) {
      throw new ContentError(`file "${file.name}" is ${bytes.length} bytes; base64 uploads are limited to 1 MB (send a \`url\` instead)`);
    }
    return { bytes };
  }
  const known = file.url !== undefined ? blobForUrl(file.url) : undefined;
  if (!known) {
    throw new ContentError(
      `file "${file.name}": the fake API cannot download ${file.url ?? 'a missing URL'}; send the bytes as \`base64\` or use a downloadURL of this fake`,
    );
  }
  return known;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  zip: 'application/zip',
};

export function guessContentType(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) ?? 'application/octet-stream';
}

export function blobKeyFor(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Hex sha256. node:crypto loads with the first hash: a command that hashes nothing (status over an unchanged folder) does not load it. */
export function sha256(data: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');
}

/** Folder, inside the sync folder, that holds Quire's own state (the mirror, staging). No imports: the pure parts of sync name it too. */
export const STATE_DIR = '.quire';

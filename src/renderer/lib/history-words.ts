import type { HistoryReasonVM } from '../../shared/contract';

/** What each kind of version means, for a person. */
export const REASON_WORDS: Record<HistoryReasonVM, string> = {
  pulled: 'Pulled from the server',
  pushed: 'Pushed',
  merged: 'Merged (edited on both sides)',
  'conflict-copy': 'The server’s side of a conflict',
  'deleted-locally': 'Deleted here',
  'deleted-remotely': 'Deleted on the server',
  restored: 'Restored',
  local: 'Your text before Quire changed the file',
};

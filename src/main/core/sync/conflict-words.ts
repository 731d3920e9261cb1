/** What a kind of conflict means, for the sync log. */
export function describeConflict(kind: string): string {
  switch (kind) {
    case 'both-changed':
      return 'edited here and on the server in the same place';
    case 'deleted-remotely':
      return 'deleted on the server while edited here';
    case 'deleted-locally':
      return 'deleted here while edited on the server';
    case 'local-file-in-the-way':
      return 'a new page from the server lands on a file that is not that page';
    default:
      return kind;
  }
}

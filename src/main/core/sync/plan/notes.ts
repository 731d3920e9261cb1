/** The stub put beside a file whose page the server deleted while it was edited here. */
export const DELETED_REMOTELY_NOTE =
  '<!-- Quire: this page was deleted on the server while you edited it here.\n' +
  'Delete this file to keep your version (it is then proposed as a new page),\n' +
  'or delete both files to accept the deletion. -->\n';

/** One schema step: runs once, inside one transaction; `PRAGMA user_version` records how far a database has come. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

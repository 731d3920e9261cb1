import type { Migration } from './migration';

export const reviewActionClaims: Migration = {
  version: 19,
  name: 'review actions claimed by the process sending them, and backed off when the server fails on one',
  sql: `
    -- Who is sending the action right now (JSON: host, pid, run, at), taken and released in
    -- one transaction each (core/review/queue.ts), so two processes replaying the queue at once
    -- never both send it; NULL when nobody is.
    ALTER TABLE review_actions ADD COLUMN claim TEXT;
    -- When an action the server failed on (5xx) is tried again; NULL: at the next replay.
    ALTER TABLE review_actions ADD COLUMN retry_at TEXT;
  `,
};

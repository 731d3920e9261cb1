/**
 * A change request as every host shows it: which one, where, and how it stands. The one mapping
 * of `ChangeRequestView` the app's view model and the CLI's `--json` both start from; each adds
 * its own (the app the space's title, its author as a user and why it asks for attention, the
 * CLI its author's name and what the reviewer did). Its keys keep this order: the CLI prints it.
 */
import type { ChangeRequestView } from '../mirror';

export interface ChangeRequestSummary {
  spaceId: string;
  id: string;
  number: number;
  subject: string;
  status: string;
  /** Main moved on since the change request was made from it. */
  outdated: boolean;
}

export function changeRequestSummary(cr: ChangeRequestView): ChangeRequestSummary {
  return { spaceId: cr.spaceId, id: cr.id, number: cr.number, subject: cr.subject, status: cr.status, outdated: cr.outdated };
}

/** The one mapping of a change request the app's view model and the CLI's --json start from. */
import { describe, expect, it } from 'vitest';
import { type ChangeRequestView, changeRequestSummary } from '../../src/main/core/review';

const view: ChangeRequestView = {
  spaceId: 's1',
  id: 'cr1',
  number: 7,
  subject: 'Better setup',
  status: 'open',
  outdated: true,
  createdBy: { id: 'u1', displayName: 'Alex' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  revision: 'r2',
  baseRevision: 'r1',
  comments: 3,
  reviewRequested: true,
  pending: false,
};

describe('changeRequestSummary', () => {
  it('says which change request, where and how it stands, in the order the CLI prints', () => {
    const summary = changeRequestSummary(view);
    expect(Object.keys(summary)).toEqual(['spaceId', 'id', 'number', 'subject', 'status', 'outdated']);
    expect(summary).toEqual({ spaceId: 's1', id: 'cr1', number: 7, subject: 'Better setup', status: 'open', outdated: true });
  });
});

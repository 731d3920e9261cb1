/** Marks something done offline and not yet accepted by the server, or refused by it, or kept in the user's pending review. */
export function PendingMark({ pending, failure, inReview }: { pending: boolean; failure?: string | undefined; inReview?: boolean | undefined }) {
  if (failure) {
    return (
      <span className="badge danger" title={failure} role="status">
        Refused: {failure}
      </span>
    );
  }
  if (inReview) {
    return (
      <span className="badge pending" title="In your pending review: sent with your verdict when you finish the review." role="status">
        Pending review
      </span>
    );
  }
  if (!pending) return null;
  return (
    <span className="badge pending" title="Saved on this computer; Quire sends it when the API is reachable." role="status">
      Pending
    </span>
  );
}

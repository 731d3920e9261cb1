/** Marks something done offline and not yet accepted by the server, or refused by it. */
export function PendingMark({ pending, failure }: { pending: boolean; failure?: string | undefined }) {
  if (failure) {
    return (
      <span className="badge danger" title={failure} role="status">
        Refused: {failure}
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

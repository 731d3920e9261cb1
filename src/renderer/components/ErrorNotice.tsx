import type { QuireError } from '../../shared/contract';

/** Shows what went wrong and what to do; the message comes from the host and already says both. */
export function ErrorNotice({ error, onDismiss }: { error: Error | null; onDismiss?: () => void }) {
  if (!error) return null;
  const code = (error as Partial<QuireError>).code;
  return (
    <div className="notice error" role="alert" data-code={code}>
      <span>{error.message}</span>
      {onDismiss && (
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

import { useCallback, useState } from 'react';
import type { ActOutcomeVM, Params, RequestName, Result } from '../../shared/contract';
import { useAction } from '../hooks/use-query';
import { ErrorNotice } from './ErrorNotice';

export interface ActState {
  busy: boolean;
  error: Error | null;
  /** What became of the last review action that answers with an outcome (sent, queued, refused, withdrawn). */
  outcome: ActOutcomeVM | null;
  run<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N> | undefined>;
  clear(): void;
}

const isOutcome = (v: unknown): v is ActOutcomeVM => typeof v === 'object' && v !== null && 'outcome' in v && 'actionId' in v;

/** useAction for review actions: also keeps the outcome, so a queued or refused one can say so where it was taken. */
export function useAct(): ActState {
  const action = useAction();
  const { run: runAction, clearError } = action;
  const [outcome, setOutcome] = useState<ActOutcomeVM | null>(null);
  const run = useCallback(
    async <N extends RequestName>(name: N, params: Params<N>) => {
      setOutcome(null);
      const result = await runAction(name, params);
      if (isOutcome(result)) setOutcome(result);
      return result;
    },
    [runAction],
  );
  const clear = useCallback(() => {
    clearError();
    setOutcome(null);
  }, [clearError]);
  return { busy: action.busy, error: action.error, outcome, run, clear };
}

/** An outcome's words: `sent` needs none (the change shows in place). */
export function outcomeWords(o: ActOutcomeVM): string | null {
  switch (o.outcome) {
    case 'sent':
      return null;
    case 'queued':
      return `Queued, shown as pending: ${o.message ?? 'it is sent when the API is back.'}`;
    case 'refused':
      return `Refused by the server: ${o.message ?? 'no reason given.'}`;
    case 'withdrawn':
      return o.message ?? 'Withdrawn: it had not been sent yet.';
    case 'pending':
      return o.message ?? 'Kept in your pending review: it is sent with your verdict.';
  }
}

/** The error of an action, or what became of it when it was not simply sent. */
export function ActFeedback({ act }: { act: ActState }) {
  if (act.error) return <ErrorNotice error={act.error} onDismiss={act.clear} />;
  const words = act.outcome ? outcomeWords(act.outcome) : null;
  if (!act.outcome || !words) return null;
  const refused = act.outcome.outcome === 'refused';
  return (
    <div className={`notice ${refused ? 'error' : 'queued'}`} role={refused ? 'alert' : 'status'} data-outcome={act.outcome.outcome}>
      <span>{words}</span>
      <button type="button" className="link" onClick={act.clear} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

import { QuireError } from '../../../shared/contract';
import { ApiError, NetworkError, TokenRejectedError, InvalidApiUrlError } from '../../core/api';
import { explainStorageError, StorageError } from '../../core/mirror';
import { KeychainUnavailableError, redactSecrets } from '../../core/secrets';

/** An error's message for a log line or the UI, with tokens redacted. */
export function describeError(e: unknown): string {
  return redactSecrets(e instanceof Error ? e.message : String(e));
}

/**
 * Maps core failures to contract errors that say what happened and what to do; no message carries
 * a token. `folder`: the sync folder, when the work used its mirror (SQLite's words are said plainly).
 */
export function toQuireError(e: unknown, doing: string, folder?: string): QuireError {
  const mapped = mapError(folder === undefined ? e : explainStorageError(e, folder), doing);
  const message = redactSecrets(mapped.message);
  return message === mapped.message ? mapped : new QuireError(mapped.code, message);
}

function mapError(e: unknown, doing: string): QuireError {
  if (e instanceof QuireError) return e;
  if (e instanceof TokenRejectedError) {
    return new QuireError('token-rejected', `The API rejected the token while trying to ${doing}. Sign out and sign in again with a valid token.`);
  }
  if (e instanceof NetworkError) {
    return new QuireError('offline', `Could not reach the API to ${doing}. Check your connection; Quire keeps your work and retries later.`);
  }
  if (e instanceof ApiError) {
    if (e.status === 403)
      return new QuireError('forbidden', `The API refused to ${doing}: you lack the permission${e.apiMessage ? ` (${e.apiMessage})` : ''}.`);
    if (e.status === 404)
      return new QuireError('not-found', `Could not ${doing}: it no longer exists on the server${e.apiMessage ? ` (${e.apiMessage})` : ''}.`);
    return new QuireError('internal', `The API failed to ${doing}: ${e.message}. Try again later.`);
  }
  if (e instanceof KeychainUnavailableError) return new QuireError('keychain-unavailable', e.message);
  if (e instanceof InvalidApiUrlError) return new QuireError('invalid-request', e.message);
  if (e instanceof StorageError) return new QuireError(e.reason === 'busy' ? 'busy' : 'internal', e.message);
  return new QuireError('internal', `Could not ${doing}: ${describeError(e)}.`);
}

/** The same error with tokens redacted from its message: nothing a handler throws reaches the UI with one. */
export function withoutSecrets(e: unknown): unknown {
  if (e instanceof QuireError) {
    const message = redactSecrets(e.message);
    return message === e.message ? e : new QuireError(e.code, message);
  }
  if (e instanceof Error) e.message = redactSecrets(e.message);
  return e;
}

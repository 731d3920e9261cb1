import { QuireError } from '../../../shared/contract';
import { ApiError, NetworkError, TokenRejectedError, InvalidApiUrlError } from '../../core/api';
import { KeychainUnavailableError } from '../../core/secrets';

export function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Maps core failures to contract errors that say what happened and what to do. */
export function toQuireError(e: unknown, doing: string): QuireError {
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
  return new QuireError('internal', `Could not ${doing}: ${describeError(e)}.`);
}

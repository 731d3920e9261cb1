export { ApiClient, MAX_PAGE_LIMIT } from './client';
export type { ApiClientOptions } from './client';
export {
  AnswerTooLargeError,
  ApiError,
  CancelledError,
  MalformedAnswerError,
  isUnreachable,
  NetworkError,
  NoAnswerError,
  PagingError,
  RedirectRefusedError,
  RetryLaterError,
  SkippedRequestError,
  TokenRejectedError,
  UnexpectedResponseError,
  UntrustedServerError,
} from './errors';
export type { ApiEvent } from './events';

export { behindOtherWork, withRequestCount } from './request-count';
export { API_URL_META, InvalidApiUrlError, normaliseApiUrl } from './url';
export { sleep } from './signals';

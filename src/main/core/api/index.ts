export { ApiClient, MAX_PAGE_LIMIT } from './client';
export type { ApiClientOptions, CallOptions, CallParams, Operation, PagedOperation, PaginateOptions } from './client';
export { ApiError, CancelledError, NetworkError, TokenRejectedError } from './errors';
export type { ApiEvent, ApiStats } from './events';
export type { Page } from './paging';
export { API_URL_META, InvalidApiUrlError, normaliseApiUrl } from './url';

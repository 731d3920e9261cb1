/** Progress and log events from the API layer. They never carry the token or query strings. */
export type ApiEvent =
  /** One attempt got an HTTP answer (any status). */
  | { type: 'response'; method: string; path: string; status: number; attempt: number; durationMs: number }
  /** An attempt failed and will be retried after `delayMs`. */
  | { type: 'retry'; method: string; path: string; attempt: number; delayMs: number; reason: string }
  /** The pacer is holding requests back to stay within the server's rate limit. */
  | { type: 'throttle'; delayMs: number };

export interface ApiStats {
  /** HTTP attempts sent, retries included. */
  requests: number;
  retries: number;
  /** 429 answers received. */
  throttled: number;
  /** Time spent waiting on purpose: rate-limit holds (wall clock) plus retry backoffs (summed per request). */
  waitedMs: number;
}

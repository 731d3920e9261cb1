/** An error answer of the API: `{ error: { code, message } }` with `code` = HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } };
}

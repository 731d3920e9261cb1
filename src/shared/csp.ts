/**
 * The window's Content-Security-Policy: only the app's own scripts, styles and
 * images; no inline script, no remote content, no framing, no form posts.
 * `connect` lists what the page may open a connection to besides its own origin
 * (the web host adds its WebSocket address).
 */
export function contentSecurityPolicy(connect: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

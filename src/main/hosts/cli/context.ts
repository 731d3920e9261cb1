import { ApiClient, type ApiClientOptions, type ApiEvent, API_URL_META, InvalidApiUrlError, normaliseApiUrl as parseApiUrl } from '../../core/api';
import { Mirror, type OpenOptions, refuseSyncFolder, UnsafeSyncFolderError } from '../../core/mirror';
import { FileGivenAddresses, type GivenAddresses, KeytarTokenStore, redactSecrets, type TokenStore } from '../../core/secrets';
import { UsageError } from './args';
import type { CliIo } from './io';
import { safeField, shellWord } from './terminal-text';

/** What commands share: opening a folder's mirror and an authenticated API client. */
export class CliContext {
  constructor(
    private readonly io: CliIo,
    readonly tokens: TokenStore = new KeytarTokenStore(),
    /** Client tuning (tests shorten retries). */
    private readonly apiOptions: Partial<ApiClientOptions> = {},
    /** The API address this user gave for each folder, kept outside it (where QUIRE_TOKEN may go). */
    readonly given: GivenAddresses = new FileGivenAddresses(),
  ) {}

  /** The same context with other client tuning, e.g. fewer retries for interactive commands. */
  withApiOptions(options: Partial<ApiClientOptions>): CliContext {
    return new CliContext(this.io, this.tokens, { ...this.apiOptions, ...options }, this.given);
  }

  /** Read-only commands keep the default: a damaged mirror is reported, not touched (`ifCorrupt: 'fail'`). */
  openMirror(dir: string, options?: OpenOptions): Mirror {
    return Mirror.open(dir, options);
  }

  /**
   * The API address from --api, else the one this folder last synced with — when a token may go
   * there: the address this user gave for the folder (`given`), or, with no record and no
   * QUIRE_TOKEN, one the keychain holds a token for (saved for that address at `quire login`).
   * The mirror alone never decides: it travels with the folder, and anyone may have edited it.
   */
  apiUrlFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>, explicit?: string): string {
    if (explicit !== undefined) return normaliseApiUrl(explicit);
    const remembered = this.rememberedApiUrl(mirror);
    if (!remembered) throw new UsageError('missing --api <base_url> (this folder has not synced with any API yet)');
    refuseUngiven(remembered, this.givenApiUrl(mirror.syncFolder), !!this.envToken(), mirror.syncFolder);
    return remembered;
  }

  /** The address this user gave for `dir` (with --api, or to the app or `quire ui` with QUIRE_TOKEN), if any. */
  givenApiUrl(dir: string): string | null {
    return givenApiUrl(this.given, dir);
  }

  /** This user gives `apiUrl` for `dir` (--api on a command that syncs it): QUIRE_TOKEN may go there from now on. */
  giveApiUrl(dir: string, apiUrl: string): void {
    giveApiUrl(this.given, dir, apiUrl, this.io.stderr);
  }

  private envToken(): string | undefined {
    return this.io.env.QUIRE_TOKEN?.trim() || undefined;
  }

  /** The API address this folder last synced with, if any. */
  rememberedApiUrl(mirror: Pick<Mirror, 'catalog'>): string | null {
    const url = mirror.catalog.getMeta(API_URL_META);
    if (!url) return null;
    try {
      return parseApiUrl(url);
    } catch (e) {
      if (e instanceof InvalidApiUrlError)
        throw new UsageError(`this folder remembers an API address Quire no longer accepts: ${e.message} Give --api.`, { usage: false });
      throw e;
    }
  }

  /** QUIRE_TOKEN, else the keychain entry saved for this API's origin (`quire login --api`), never another API's. */
  async token(apiUrl: string): Promise<string> {
    const fromEnv = this.envToken();
    if (fromEnv) return fromEnv;
    const stored = await this.tokens.get(apiUrl);
    if (stored) return stored;
    throw new Error(`No API token for ${apiUrl}. Run \`quire login --api ${apiUrl}\` (reads the token from stdin) or set QUIRE_TOKEN.`);
  }

  async apiFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>, explicitUrl?: string): Promise<ApiClient> {
    const baseUrl = this.apiUrlFor(mirror, explicitUrl);
    return this.client(baseUrl, await this.token(baseUrl));
  }

  /** A client for `baseUrl` that says each retry on stderr as it is decided. */
  client(baseUrl: string, token: string, options: Partial<ApiClientOptions> = {}): ApiClient {
    const given = { ...this.apiOptions, ...options };
    const onEvent = (event: ApiEvent): void => {
      given.onEvent?.(event);
      const line = retryLine(event);
      if (line !== null) this.io.stderr(line);
    };
    return new ApiClient({ ...given, baseUrl, token, signal: this.io.signal, onEvent });
  }
}

/**
 * One stderr line per retry, as it is decided (a dead API shows at once, not after the backoffs):
 * `GET /orgs: connection failed: ECONNREFUSED …; retrying… (attempt 2, in 0.4 s)`. The request and
 * the reason may carry server text: made safe for a terminal, and never the token.
 */
function retryLine(event: ApiEvent): string | null {
  if (event.type !== 'retry') return null;
  const wait = event.delayMs < 1000 ? `${(event.delayMs / 1000).toFixed(1)} s` : `${Math.round(event.delayMs / 1000)} s`;
  return safeField(redactSecrets(`${event.method} ${event.path}: ${event.reason}; retrying… (attempt ${event.attempt + 1}, in ${wait})`));
}

/**
 * A remembered address no token may go to, refused in one line (exit 2) before anything is sent:
 * one that differs from the address this user gave for the folder, whatever the token's source;
 * and, for QUIRE_TOKEN (meant for whatever address its user names), one this user never gave.
 * A keychain token needs no record: it is saved for one address and only ever sent there.
 */
export function refuseUngiven(remembered: string, given: string | null, envToken: boolean, dir: string): void {
  const fix = `run \`quire sync --dir ${shellWord(dir)} --api ${remembered}\` once`;
  if (given !== null && given !== remembered)
    throw new AddressNotGivenError(
      `this folder's mirror now names the API ${remembered}, but you gave ${given} for it; Quire sends no token to an address only the folder names. If ${remembered} is right, ${fix}.`,
    );
  if (given === null && envToken)
    throw new AddressNotGivenError(
      `QUIRE_TOKEN goes only to an API address you gave for this folder, and ${remembered} comes from its mirror alone (a folder synced elsewhere, or before Quire kept a record); if it is right, ${fix}.`,
    );
}

/** The folder's remembered address is not one its user gave (refuseUngiven): every command stops, nothing sent or queued. */
export class AddressNotGivenError extends UsageError {
  constructor(message: string) {
    super(message, { usage: false });
    this.name = 'AddressNotGivenError';
  }
}

/** The address this user gave for `dir`, if any (a record Quire no longer accepts gives none). */
export function givenApiUrl(given: GivenAddresses, dir: string): string | null {
  const url = given.get(dir);
  try {
    return url === null ? null : parseApiUrl(url);
  } catch {
    return null;
  }
}

/** Notes that this user gave `apiUrl` for `dir`; a record that cannot be written is said, and costs only a later --api. */
export function giveApiUrl(given: GivenAddresses, dir: string, apiUrl: string, say: (line: string) => void): void {
  try {
    given.set(dir, apiUrl);
  } catch (e) {
    say(`Could not note outside the folder that ${dir} syncs with ${apiUrl} (${(e as Error).message}): commands without --api will ask for it again.`);
  }
}

/** `--dir` names the root of the file system or a home folder itself: a usage error (exit 2), one line. */
export function refuseUnsafeDir(dir: string): void {
  try {
    refuseSyncFolder(dir);
  } catch (e) {
    if (e instanceof UnsafeSyncFolderError) throw new UsageError(`--dir ${e.message}`, { usage: false });
    throw e;
  }
}

/** The core's API address check, with a bad address reported as a usage error (exit code 2). */
export function normaliseApiUrl(raw: string): string {
  try {
    return parseApiUrl(raw);
  } catch (e) {
    if (e instanceof InvalidApiUrlError) throw new UsageError(`bad --api address: ${e.message}`, { usage: false });
    throw e;
  }
}

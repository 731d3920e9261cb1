/**
 * Where the API token lives: the OS keychain, never a file or a log.
 * One small interface so the backend (keytar today) can be swapped.
 */
export { redactOptional, redactSecrets, rememberSecret } from './redact';
export { FileGivenAddresses, type GivenAddresses, MemoryGivenAddresses, userConfigDir } from './given-addresses';

export interface TokenStore {
  get(apiUrl: string): Promise<string | null>;
  set(apiUrl: string, token: string): Promise<void>;
  delete(apiUrl: string): Promise<boolean>;
}

/** Keychain service name under which tokens are stored, one account per API origin. */
const KEYCHAIN_SERVICE = 'Quire';

export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      `The OS keychain is not available (${detail}). On Linux, start a Secret Service such as gnome-keyring; or set QUIRE_TOKEN in the environment for this session.`,
    );
    this.name = 'KeychainUnavailableError';
  }
}

/** Normalises an API address into the account name used in the keychain. */
function keychainAccount(apiUrl: string): string {
  const url = new URL(apiUrl);
  return url.origin;
}

/** The keytar-backed store. keytar is loaded lazily so hosts that never touch the keychain don't need it. */
export class KeytarTokenStore implements TokenStore {
  private async keytar(): Promise<typeof import('keytar')> {
    try {
      const mod = (await import('keytar')) as typeof import('keytar') & { default?: typeof import('keytar') };
      return mod.default ?? mod;
    } catch (err) {
      throw new KeychainUnavailableError(err);
    }
  }

  private async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof KeychainUnavailableError) throw err;
      throw new KeychainUnavailableError(err);
    }
  }

  async get(apiUrl: string): Promise<string | null> {
    const k = await this.keytar();
    return this.guard(() => k.getPassword(KEYCHAIN_SERVICE, keychainAccount(apiUrl)));
  }

  async set(apiUrl: string, token: string): Promise<void> {
    const k = await this.keytar();
    await this.guard(() => k.setPassword(KEYCHAIN_SERVICE, keychainAccount(apiUrl), token));
  }

  async delete(apiUrl: string): Promise<boolean> {
    const k = await this.keytar();
    return this.guard(() => k.deletePassword(KEYCHAIN_SERVICE, keychainAccount(apiUrl)));
  }
}

/** An in-memory store for tests and for hosts that were handed a token from the environment. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, string>();
  async get(apiUrl: string): Promise<string | null> {
    return this.tokens.get(keychainAccount(apiUrl)) ?? null;
  }
  async set(apiUrl: string, token: string): Promise<void> {
    this.tokens.set(keychainAccount(apiUrl), token);
  }
  async delete(apiUrl: string): Promise<boolean> {
    return this.tokens.delete(keychainAccount(apiUrl));
  }
}

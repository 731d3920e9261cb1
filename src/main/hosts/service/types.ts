import type { ContractService, HostKind, Params, RequestName, Result, SyncStatusVM } from '../../../shared/contract';
import type { GivenAddresses, TokenStore } from '../../core/secrets';

/** What only the host can do: talk to the desktop. */
export interface HostCapabilities {
  kind: HostKind;
  openExternal(url: string): Promise<void>;
  /** Opens a file or folder with the desktop's default app; absent where there is none to reach (a browser cannot start local apps). */
  openPath?(path: string): Promise<void>;
  /** A native folder picker; absent where there is none (the web host). */
  chooseFolder?(): Promise<string | null>;
}

export interface QuireServiceOptions {
  /** API origin offered when the folder has not talked to one yet. */
  apiUrl: string;
  /** The sync folder. */
  folder: string;
  tokens: TokenStore;
  host: HostCapabilities;
  /** A token handed over by the environment (QUIRE_TOKEN, the demo): used, never stored. */
  token?: string;
  /**
   * Where the folder's address is noted as given by its user (typed at sign-in, or the one the
   * host was started with, once a sync used `token` there), so QUIRE_TOKEN may go there from the
   * command line too. Default: the user's record (FileGivenAddresses).
   */
  given?: GivenAddresses;
  notifications?: boolean;
  /** Called when the user changes settings, so a host can persist them. */
  onSettingsChange?(settings: { folder: string; notifications: boolean }): void;
  /** Time between automatic sync cycles; 0 turns them off. Default 60 s. */
  syncIntervalMs?: number;
  /** How long `close` lets a running cycle finish before cancelling its requests. Default 5 s. */
  stopGraceMs?: number;
  /** Options for the API client (tests shorten retries). */
  api?: { maxAttempts?: number; timeoutMs?: number };
  log?: (line: string) => void;
}

export interface QuireService extends ContractService {
  /** Stops automatic syncs, waits for a running cycle to finish its transaction, closes the mirror. */
  close(): Promise<void>;
  /** Runs one sync cycle now and resolves when it is over (tests, the tray's "Sync now"). */
  syncOnce(): Promise<SyncStatusVM>;
  status(): SyncStatusVM;
  /** The signed-in user's id, for hosts deciding what to notify about. */
  userId(): string | null;
  /** Review state for notifications; null when review state is not available. */
  attentionSnapshot(): AttentionSnapshot | null;
}

/** Ids the notifications are derived from (see hosts/electron/notices.ts). */
export interface AttentionSnapshot {
  conflicts: string[];
  commentsOnMyChangeRequests: string[];
  repliesToMyComments: string[];
}

export type Handler<N extends RequestName> = (params: Params<N>) => Promise<Result<N>> | Result<N>;
/** One answer per contract request; each module supplies the handlers for its area. */
export type Handlers = { [N in RequestName]: Handler<N> };
export type HandlersFor<N extends RequestName> = Pick<Handlers, N>;

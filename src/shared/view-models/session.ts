/** Who is signed in, their organizations, collections and spaces, and the settings. */
import type { SyncStateName } from '../sync-state';
import type { StateReasonVM } from './sync';

export interface UserVM {
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export type KeychainState = 'ok' | 'unavailable';

export interface SessionVM {
  signedIn: boolean;
  /** API origin the app talks to (the client adds /v1). */
  apiUrl: string;
  user: UserVM | null;
  keychain: KeychainState;
  /** Why the user is signed out, when it was not their choice (e.g. token rejected). */
  reason?: string;
}

export interface OrganizationVM {
  id: string;
  title: string;
}

export interface CollectionVM {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
}

/** A space's sync state (the one state, per space), or `not-chosen` for a space not synced into this folder. */
export type SpaceState = SyncStateName | 'not-chosen';

export interface SpaceVM {
  id: string;
  organizationId: string;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  visibility: string | null;
  selected: boolean;
  /** Folder of this space inside the sync folder, once synced. */
  folder: string | null;
  /** The last cycle of this space that reached the server and completed. */
  lastSyncAt: string | null;
  pendingEdits: number;
  conflicts: number;
  lastError: string | null;
  state: SpaceState;
  /** Why the space is in its state (empty when in sync), as the banner lists them. */
  reasons: StateReasonVM[];
}

export interface CatalogVM {
  organizations: OrganizationVM[];
  collections: CollectionVM[];
  spaces: SpaceVM[];
  refreshedAt: string | null;
}

export type HostKind = 'electron' | 'web';

export interface SettingsVM {
  /** The sync folder: every chosen space gets a folder inside it. */
  folder: string;
  notifications: boolean;
  host: HostKind;
  /** Whether the host can show a native folder picker. */
  canChooseFolder: boolean;
}

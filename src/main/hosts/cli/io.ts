/** Where a command writes: injectable so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => Promise<string>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, error: 1, usage: 2, conflicts: 3 } as const;

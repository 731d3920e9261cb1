/** Where a command writes: injectable so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => Promise<string>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** Exit codes shared by every command. 130 is the shell's code for "ended by Ctrl-C" (128 + SIGINT). */
export const EXIT = { ok: 0, error: 1, usage: 2, conflicts: 3, stopped: 130 } as const;

/**
 * The real process's streams and environment. A reader that goes away (`quire status | head`)
 * is not an error: what is left to print is dropped quietly, instead of an EPIPE stack trace.
 */
export function processIo(signal: AbortSignal = new AbortController().signal, env: NodeJS.ProcessEnv = process.env): CliIo {
  return {
    stdout: lineWriter(() => process.stdout),
    stderr: lineWriter(() => process.stderr),
    env,
    signal,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Writes lines to the stream, made on the first line: a command that writes nothing to stderr does not make it. */
function lineWriter(open: () => NodeJS.WriteStream): (text: string) => void {
  let stream: NodeJS.WriteStream | null = null;
  let closed = false;
  return (text) => {
    if (!stream) {
      stream = open();
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
        closed = true;
      });
    }
    if (!closed) stream.write(`${text}\n`);
  };
}

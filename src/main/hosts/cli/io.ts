import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

/** What a part of a line is, for colour on a terminal (a diff's headers, hunks, removed and added text). */
export type Style = 'meta' | 'hunk' | 'removed' | 'added';

export interface Styled {
  text: string;
  style?: Style;
}

/** Where a command writes: injectable so tests can run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => Promise<string>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** Whether stdout shows colour (a terminal, and neither NO_COLOR nor TERM=dumb; FORCE_COLOR forces it); asked only by commands that colour. */
  colour?: () => boolean;
  /** One line of parts, each coloured by its style where stdout shows colour (runCli provides it). */
  stdoutStyled?: (parts: readonly Styled[]) => void;
}

/** Writes a line of styled parts: coloured where the command's stdout shows colour, plain otherwise. */
export function writeStyled(io: CliIo, parts: readonly Styled[]): void {
  if (io.stdoutStyled) io.stdoutStyled(parts);
  else io.stdout(parts.map((p) => p.text).join(''));
}

/**
 * Whether a descriptor shows colour: FORCE_COLOR (not `0`) says yes, NO_COLOR (any value) or
 * TERM=dumb no; otherwise, whether it is a terminal. node:tty is loaded only when asked (it
 * loads the socket modules every command would otherwise pay for).
 */
export function showsColour(fd: number, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if ((env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb') return false;
  const { isatty } = createRequire(import.meta.url)('node:tty') as typeof import('node:tty');
  return isatty(fd);
}

/** Exit codes shared by every command. 130 is the shell's code for "ended by Ctrl-C" (128 + SIGINT). */
export const EXIT = { ok: 0, error: 1, usage: 2, conflicts: 3, stopped: 130 } as const;

/**
 * The real process's streams and environment. A reader that goes away (`quire status | head`)
 * is not an error: what is left to print is dropped quietly, instead of an EPIPE stack trace.
 */
export function processIo(signal: AbortSignal = new AbortController().signal, env: NodeJS.ProcessEnv = process.env): CliIo {
  return {
    stdout: lineWriter(1, () => process.stdout),
    stderr: lineWriter(2, () => process.stderr),
    env,
    signal,
    colour: () => showsColour(1, env),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Writes lines straight to the descriptor: process.stdout is a stream, whose making loads Node's
 * stream and socket modules (~4 ms of every command; ~12 ms under the launcher's V8 flag, which
 * compiles them without Node's code cache). A descriptor another process left non-blocking (a
 * Node parent sharing its pipe) refuses a write the reader is not ready for (EAGAIN): from then
 * on the stream writes, in order, waiting for the reader as it does. On Windows the stream always
 * writes: its console takes UTF-16, which the stream converts to.
 */
export function lineWriter(fd: number, openStream: () => NodeJS.WritableStream): (text: string) => void {
  let stream: NodeJS.WritableStream | null = null;
  let closed = false;
  const toStream = (bytes: Uint8Array) => {
    if (!stream) {
      stream = openStream();
      stream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
        closed = true;
      });
    }
    stream.write(bytes);
  };
  return (text) => {
    if (closed) return;
    const bytes = Buffer.from(`${text}\n`);
    if (stream || process.platform === 'win32') return toStream(bytes);
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') closed = true;
      else if (code === 'EAGAIN') toStream(bytes.subarray(written));
      else throw err;
    }
  };
}

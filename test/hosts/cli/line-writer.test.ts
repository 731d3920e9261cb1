/**
 * The CLI writes its lines straight to the descriptor (no stream to load at start), and hands
 * over to the stream when the descriptor is non-blocking and the reader is not keeping up: every
 * line arrives, in order.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { lineWriter } from '../../../src/main/hosts/cli/io';

it.skipIf(process.platform === 'win32')('a reader slower than the writer on a non-blocking pipe still gets every line, in order', async () => {
  // `cat` copies its input to a pipe nobody reads yet: both pipes fill. This process's end of
  // cat's input is non-blocking (Node's own pipes are), as a Node parent's shared stdout is.
  const cat = spawn('cat', [], { stdio: ['pipe', 'pipe', 'inherit'] });
  cat.stdout.pause();
  const fd = (cat.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  let streamOpened = false;
  const write = lineWriter(fd, () => {
    streamOpened = true;
    return cat.stdin;
  });
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'é'.repeat(20)}`); // ~1 MB, more than the pipes hold
  for (const line of lines) write(line);
  expect(streamOpened).toBe(true); // the descriptor refused a write: the stream took over
  cat.stdin.end();
  let out = '';
  cat.stdout.setEncoding('utf8');
  cat.stdout.on('data', (chunk: string) => (out += chunk));
  cat.stdout.resume();
  await once(cat, 'close');
  expect(out).toBe(`${lines.join('\n')}\n`);
});

it('writes each line at once when the descriptor takes it', async () => {
  const cat = spawn('cat', [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const fd = (cat.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  let streamOpened = false;
  const write = lineWriter(fd, () => {
    streamOpened = true;
    return cat.stdin;
  });
  let out = '';
  cat.stdout.setEncoding('utf8');
  cat.stdout.on('data', (chunk: string) => (out += chunk));
  write('first');
  write('second');
  expect(streamOpened).toBe(process.platform === 'win32');
  cat.stdin.end();
  await once(cat, 'close');
  expect(out).toBe('first\nsecond\n');
});

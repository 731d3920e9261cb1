// Preloaded into a `quire` process by load-on-demand.test.ts (node --import): the Node modules it
// loaded, written to stderr as it exits.
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  process.stderr.write(`QUIRE_MODULES ${JSON.stringify(builtins)}\n`);
});

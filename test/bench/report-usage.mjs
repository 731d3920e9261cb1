// Preloaded into the CLI process by the benchmark (node --import): reports the
// process's peak memory as it exits, so the figure is the real CLI's.
process.on('exit', () => {
  process.stderr.write(`QUIRE_BENCH ${JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
});

// Preloaded into the CLI process by the benchmark (node --require: no ES module loader started for it): reports the
// process's peak memory and CPU time (all its threads) as it exits, so the figures are the real CLI's.
process.on('exit', () => {
  const usage = process.resourceUsage();
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  process.stderr.write(`QUIRE_BENCH ${JSON.stringify({ maxRssMb: usage.maxRSS / 1024, cpuMs })}\n`);
});

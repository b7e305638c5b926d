// Entry point of the embedded service process (`npm run service`, the browser host's child process,
// Electron's utility process). All logic lives in cli.ts; this file only runs it.
import { runCli } from './cli.ts';

runCli(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

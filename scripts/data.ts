import { runDataTool } from '../src/server/owner/data-tool.ts';
import { setting } from '../src/server/settings/environment.ts';
import { openStore } from '../src/server/store/open.ts';

// The owner's data tool: npm run data -- --help
process.exitCode = await runDataTool(
  process.argv.slice(2),
  () => openStore({ dataDir: setting('DATA_DIR'), databaseUrl: setting('DATABASE_URL'), longStatements: true }),
  { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, progress: process.stderr.isTTY },
);

import { runDataTool } from '../src/server/owner/data-tool.ts';
import { databaseUrl, dataDir } from '../src/server/settings/environment.ts';
import { openStore } from '../src/server/store/open.ts';

// The owner's data tool: npm run data -- --help
process.exitCode = await runDataTool(
  process.argv.slice(2),
  () => openStore({ dataDir: dataDir(), databaseUrl: databaseUrl(), longStatements: true }),
  { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, progress: process.stderr.isTTY },
);

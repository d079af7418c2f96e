import { runTranslationsTool } from '../src/server/articles/translations-tool.ts';

// The writer's translation tool: npm run translations -- --help
process.exitCode = await runTranslationsTool(process.argv.slice(2), 'content/articles', { stdout: process.stdout, stderr: process.stderr });

/**
 * The folder source (folder-source.ts) in a process of its own, on a stopped server's data folder: the crash test
 * arms HEARTH_FAILPOINT=intake.after-commit, so this process dies right after the door commits the first file.
 * Args: <data dir> <owner id> <folder>.
 */
import { loadConfig } from '../../../server/src/config/env.ts';
import { createContainer } from '../../../server/src/container.ts';
import { createLogger } from '../../../server/src/platform/logger.ts';
import { runFolderSource } from './folder-source.ts';

const [dataDir, ownerId, folder] = process.argv.slice(2) as [string, string, string];
const config = loadConfig({ HEARTH_DATA_DIR: dataDir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent', HEARTH_ML_DEFAULT_ON: 'false' });
const c = createContainer(config, createLogger(config.logLevel));
const runs = await runFolderSource(c.door, c.intake, c.repositories.primary()!, Number(ownerId), folder);
process.stdout.write(`${JSON.stringify(runs)}\n`);
await c.close();

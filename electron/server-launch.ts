/**
 * What the desktop app's utility process is started with: the same Node flags and allocator environment
 * as `npm start` (server/src/config/process-launch.ts), then the user's own environment (which may
 * override the allocator settings), then the folders and port the shell chose. Kept apart from
 * server-process.ts, which needs Electron, so that a test can check it with plain Node.
 */
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../server/src/config/process-launch.ts';

export interface ServerFolders {
  dataDir: string;
  modelsDir: string;
  /** The models shipped with Hearth (the repository's models/: the two face models). */
  shippedModelsDir: string;
  uiDir: string;
}

export interface ServerForkOptions {
  execArgv: string[];
  env: Record<string, string | undefined>;
}

export function serverForkOptions(folders: ServerFolders, parentEnv: NodeJS.ProcessEnv): ServerForkOptions {
  return {
    execArgv: [...SERVER_NODE_FLAGS],
    env: {
      ...SERVER_MALLOC_ENV,
      ...parentEnv,
      HEARTH_PORT: parentEnv.HEARTH_PORT ?? '6680',
      // HEARTH_HOST only when the user set it (in parentEnv above): unset, the administrator's network
      // setting decides, and a fresh install listens on 127.0.0.1.
      HEARTH_DATA_DIR: folders.dataDir,
      HEARTH_MODELS_DIR: folders.modelsDir,
      HEARTH_SHIPPED_MODELS_DIR: folders.shippedModelsDir,
      HEARTH_UI_DIR: folders.uiDir,
    },
  };
}

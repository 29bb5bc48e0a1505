/**
 * `npm run dev`: the server (restarted by tsx on change) and Vite's dev server for the UI with hot
 * reload, which proxies /api to the server. Open the URL Vite prints.
 */
import { spawn } from 'node:child_process';

const procs = [
  spawn('npx', ['tsx', 'watch', 'server/src/main.ts'], { stdio: 'inherit', env: { ...process.env, HEARTH_LOG_LEVEL: process.env.HEARTH_LOG_LEVEL ?? 'debug' } }),
  spawn('npx', ['vite', '--config', 'renderer/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const p of procs) p.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs) p.on('exit', (code) => code && stop());

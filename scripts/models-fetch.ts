/**
 * `npm run models:fetch`: downloads the model files the registry lists (server/src/adapters/ml/
 * model-manifest.ts) and the models folder lacks, from their pinned sources, into the models folder
 * (HEARTH_MODELS_DIR, default `<HEARTH_DATA_DIR>/models`). Progress is printed per file; an
 * interrupted download resumes where it stopped (this run retries, and the next run continues the
 * `.part`); every file is checked against its sha256 before it is renamed into place, and a mismatch
 * deletes the download and fails loudly. Files already there and verified are left alone; files there
 * but wrong are replaced.
 *
 *   npm run models:fetch                      every model a capability needs (OCR, faces, CLIP)
 *   npm run models:fetch -- --all             also the alternative face detectors (never the test stand-ins)
 *   npm run models:fetch -- --models a,b      only these registry ids
 *   npm run models:fetch -- --list            what is installed, nothing downloaded
 *
 * HEARTH_MODELS_BASE_URL downloads `<base>/<file path>` instead (a mirror). Exit code 0 when every
 * file is in place, 1 when one failed, 2 on a bad command line or configuration.
 */
import { ConfigError, loadConfig } from '../server/src/config/env.ts';
import { MODELS, ModelCatalog, ModelFileChecker, fetchModels, modelEntry, requiredModelIds, type FetchProgress } from '../server/src/adapters/ml/index.ts';
import path from 'node:path';

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

function parseArgs(argv: string[]): { ids: string[]; list: boolean } {
  let ids = requiredModelIds();
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--all') ids = MODELS.filter((m) => !m.test_only).map((m) => m.id);
    else if (a === '--list') list = true;
    else if (a === '--models' || a.startsWith('--models=')) {
      const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      ids = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = ids.filter((id) => !modelEntry(id));
      if (!ids.length || unknown.length) throw new Error(`unknown model id(s): ${unknown.join(', ') || '(none given)'}; known: ${MODELS.map((m) => m.id).join(', ')}`);
    } else throw new Error(`unknown argument ${a} (use --all, --models a,b or --list)`);
  }
  return { ids, list };
}

/** One line per file and step; on a terminal the running percentage rewrites its line. */
function progressPrinter(): (p: FetchProgress) => void {
  const tty = process.stdout.isTTY;
  const shown = new Map<string, number>();
  return (p) => {
    const name = `${p.model_id} ${p.path}`;
    if (p.phase === 'data') {
      const pct = Math.floor((p.received / p.bytes) * 100);
      const step = tty ? pct : pct - (pct % 10);
      if (shown.get(p.path) === step) return;
      shown.set(p.path, step);
      if (tty) process.stdout.write(`\r${name}: ${pct}% of ${mb(p.bytes)}`);
      else process.stdout.write(`${name}: ${step}% of ${mb(p.bytes)}\n`);
      return;
    }
    if (tty && shown.has(p.path)) process.stdout.write('\n');
    shown.delete(p.path);
    if (p.phase === 'start') process.stdout.write(`${name}: ${p.received ? `resuming at ${mb(p.received)}` : 'downloading'} (${mb(p.bytes)})\n`);
    else if (p.phase === 'retry') process.stdout.write(`${name}: ${p.message}\n`);
    else if (p.phase === 'verify') process.stdout.write(`${name}: checking sha256\n`);
    else if (p.phase === 'done') process.stdout.write(`${name}: installed\n`);
    else if (p.phase === 'failed') process.stderr.write(`${name}: FAILED: ${p.message}\n`);
  };
}

async function main(): Promise<number> {
  let config;
  let args;
  try {
    config = loadConfig();
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`models:fetch: ${e instanceof ConfigError ? e.message : (e as Error).message}\n`);
    return 2;
  }
  const catalog = new ModelCatalog(config.modelsDir, new ModelFileChecker(path.join(config.dataDir, 'models-verified.json')));
  process.stdout.write(`models folder: ${config.modelsDir}${config.modelsBaseUrl ? `\ndownloading from: ${config.modelsBaseUrl}` : ''}\n`);
  if (args.list) {
    for (const s of await catalog.all()) process.stdout.write(`${s.id.padEnd(22)} ${s.state.padEnd(14)} ${mb(s.bytes).padStart(9)}  ${s.cause ?? ''}\n`);
    return 0;
  }
  const result = await fetchModels(catalog, { ids: args.ids, baseUrl: config.modelsBaseUrl, onProgress: progressPrinter() });
  process.stdout.write(`${result.fetched.length} downloaded, ${result.present.length} already installed, ${result.failed.length} failed\n`);
  for (const f of result.failed) process.stderr.write(`  ${f.path}: ${f.error}\n`);
  return result.failed.length ? 1 : 0;
}

process.exitCode = await main();

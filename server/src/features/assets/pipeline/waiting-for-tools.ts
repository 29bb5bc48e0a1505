/**
 * Files that wait for ffprobe/ffmpeg (status 930, see status-codes.ts), and queuing them again once the tools
 * are there.
 *
 * Decision (the contract is silent): a missing tool is a property of the machine, not of the file, so such an
 * asset is never `failed`. It stays `pending` with status 930, the container's own metadata and placeholder
 * thumbnails, and `last_error` says which tool is missing and how to install it (reason code `tool_missing`).
 * It is processed again by itself when the tools are found: at every start (container.ts), and when an
 * administrator asks (recheckMediaTools, the "Check again" button of the Jobs and Models pages). A member's
 * reprocessAsset queues one such file at any time. Both tools are required before anything is queued: a video
 * needs ffprobe for its metadata and ffmpeg for its poster, so with one of them it would only wait again.
 */
import { mediaToolsStatus, type MediaTool, type ToolResolution } from '../../../adapters/media/binaries.ts';
import type { Db } from '../../../platform/db/connection.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import { ACTIVE_STATES, sqlList } from '../../../platform/jobs/registry.ts';
import { processAsset } from './assets.jobs.ts';
import { STATUS } from './status-codes.ts';

/** SQL condition: the asset `a` waits for a tool. */
export const WAITS_FOR_TOOL = `(a.state = 'pending' AND EXISTS (SELECT 1 FROM json_each(a.status) WHERE value = ${STATUS.waitingForTool}))`;

/** How to install the tools, for people (the Jobs and Models pages, diagnostics, `last_error`). */
export const INSTALL_HINT =
  'Install ffmpeg, which brings ffprobe (on Debian or Ubuntu: sudo apt install ffmpeg), or set FFMPEG_PATH and FFPROBE_PATH to the programs. ' +
  'Hearth then processes the waiting files by itself at its next start, or at once with "Check again" on the Jobs page.';

/** The asset's `last_error` while it waits for `tool`. */
export function waitingReason(tool: string): string {
  return `Waiting for ${tool}, which is not installed on the Hearth machine. ${INSTALL_HINT}`;
}

export interface MediaToolsReport {
  /** `tool_missing` when ffmpeg or ffprobe is not found, else null. */
  reason: 'tool_missing' | null;
  tools: Array<{ tool: MediaTool; found: boolean; path: string | null; source: ToolResolution['source']; searched: string[] }>;
  /** Files waiting for a tool (status 930), all members together. */
  waiting_assets: number;
  install_hint: string;
}

export function waitingAssetCount(db: Db): number {
  return db.prepare(`SELECT count(*) FROM assets a WHERE a.state = 'pending' AND ${WAITS_FOR_TOOL}`).pluck().get() as number;
}

/** Where the tools are (looked up now: installing ffmpeg needs no restart) and how many files wait for them. */
export function mediaToolsReport(db: Db, env: Record<string, string | undefined> = process.env): MediaToolsReport {
  const status = mediaToolsStatus(env);
  const tools = (['ffprobe', 'ffmpeg'] as const).map((tool) => {
    const r = status[tool];
    return { tool, found: r.path !== null, path: r.path, source: r.source, searched: r.searched };
  });
  return { reason: tools.every((t) => t.found) ? null : 'tool_missing', tools, waiting_assets: waitingAssetCount(db), install_hint: INSTALL_HINT };
}

/**
 * Queues every waiting file again when both tools are found now; returns how many were queued (0 while a
 * tool is still missing). Files that already have a processing job waiting are left to it.
 */
export function resumeWaitingAssets(db: Db, jobs: JobQueue, env: Record<string, string | undefined> = process.env): number {
  const status = mediaToolsStatus(env);
  if (!status.ffprobe.path || !status.ffmpeg.path) return 0;
  return db
    .transaction(() => {
      const waiting = db
        .prepare(
          `SELECT a.asset_id, a.owner_id FROM assets a WHERE a.state = 'pending' AND ${WAITS_FOR_TOOL}
             AND NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ? AND unique_key = 'process:' || a.asset_id AND state IN (${sqlList(ACTIVE_STATES)}))`,
        )
        .all(processAsset.kind) as Array<{ asset_id: string; owner_id: number }>;
      for (const a of waiting) jobs.enqueue(processAsset, { asset_id: a.asset_id, receipt_id: null }, { uniqueKey: `process:${a.asset_id}`, ownerId: a.owner_id });
      return waiting.length;
    })
    .immediate();
}

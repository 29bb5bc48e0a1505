/**
 * What an asset's processing state means on screen. A file waiting for ffmpeg/ffprobe (status 930, state
 * `pending`; server: features/assets/pipeline/waiting-for-tools.ts) is not "being processed": nothing runs
 * until the administrator installs the tools, so its tile shows its placeholder and the lists do not poll for it.
 */
import type { Asset } from './library-api';

/** Asset status code: waiting for a tool that is not installed (server: pipeline/status-codes.ts). */
const WAITING_FOR_TOOL = 930;

export const waitsForTool = (a: Pick<Asset, 'state' | 'status'>) => a.state === 'pending' && a.status.includes(WAITING_FOR_TOOL);

export const isProcessing = (a: Pick<Asset, 'state' | 'status'>) => (a.state === 'pending' || a.state === 'processing') && !waitsForTool(a);

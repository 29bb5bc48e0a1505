/**
 * The main window's size and place, remembered in `<userData>/window-state.json` between runs.
 *
 * Restored only when the remembered rectangle is still on a display: a window last seen on a monitor
 * that is now unplugged would open off-screen, where nobody can reach it. "On a display" means at least
 * MIN_VISIBLE px of its width and of its height overlap one display's work area (so its title bar can
 * be grabbed); otherwise only the size is kept (clamped to the largest work area) and the system places it.
 * A missing, unreadable or malformed file gives the defaults: the state is a convenience, never a reason
 * not to start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Rectangle } from './electron-api.ts';

export interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { width: 1280, height: 860, maximized: false };
export const MIN_SIZE = { width: 360, height: 560 };
const MIN_VISIBLE = 64;
export const WINDOW_STATE_FILE = 'window-state.json';

export function loadWindowState(userData: string): WindowState {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(userData, WINDOW_STATE_FILE), 'utf8')) as Partial<WindowState>;
    const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
    if (!num(raw.width) || !num(raw.height)) return { ...DEFAULT_WINDOW };
    const state: WindowState = {
      width: Math.max(MIN_SIZE.width, Math.round(raw.width!)),
      height: Math.max(MIN_SIZE.height, Math.round(raw.height!)),
      maximized: raw.maximized === true,
    };
    if (num(raw.x) && num(raw.y)) Object.assign(state, { x: Math.round(raw.x!), y: Math.round(raw.y!) });
    return state;
  } catch {
    return { ...DEFAULT_WINDOW };
  }
}

export function saveWindowState(userData: string, state: WindowState): void {
  fs.mkdirSync(userData, { recursive: true });
  const file = path.join(userData, WINDOW_STATE_FILE);
  // Written aside and renamed: a quit in the middle never leaves half a file.
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

function overlap(a: Rectangle, b: Rectangle): { w: number; h: number } {
  return {
    w: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    h: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/** The state to open the window with on these displays: the position dropped when it is not visible. */
export function placeOnDisplays(state: WindowState, workAreas: Rectangle[]): WindowState {
  const largest = workAreas.reduce<Rectangle | null>((best, a) => (!best || a.width * a.height > best.width * best.height ? a : best), null);
  const size = largest
    ? { width: Math.min(state.width, largest.width), height: Math.min(state.height, largest.height) }
    : { width: state.width, height: state.height };
  const fitted = { ...size, maximized: state.maximized };
  if (state.x === undefined || state.y === undefined) return fitted;
  const rect = { x: state.x, y: state.y, ...size };
  const visible = workAreas.some((area) => {
    const o = overlap(rect, area);
    return o.w >= Math.min(MIN_VISIBLE, rect.width) && o.h >= Math.min(MIN_VISIBLE, rect.height) && rect.y >= area.y - MIN_VISIBLE / 2;
  });
  return visible ? { ...fitted, x: state.x, y: state.y } : fitted;
}

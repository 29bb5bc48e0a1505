/** Small measuring tools shared by the search bench sections. */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export function percentile(times: number[], p: number): number {
  if (times.length === 0) return NaN;
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '–');
export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

/** Times fn on the event loop and reports the longest stall the loop saw meanwhile. */
export async function withLoopStall<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; stallMs: number; stallP99Ms: number; cpuMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const value = await fn();
  const took = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  h.disable();
  return { value, ms: took, stallMs: h.max / 1e6, stallP99Ms: h.percentile(99) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export function rss(): number {
  if (global.gc) global.gc();
  return process.memoryUsage().rss;
}

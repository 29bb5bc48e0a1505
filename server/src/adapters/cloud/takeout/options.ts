/**
 * What a caller may set when opening Takeout archives, and the limits that keep a hostile or broken archive from
 * filling the disk or the memory. Defaults are sized for a real household export (parts of 2–50 GB, videos of a
 * few GB, sidecars of a few KB) with a wide margin.
 */
export interface TakeoutLimits {
  /** An entry declaring more bytes than this is refused (no phone video comes near 50 GB). */
  maxEntryBytes: number;
  /**
   * Uncompressed ÷ compressed above this is a bomb, not a photo: JPEG, HEIC and video barely compress (≈1:1), JSON
   * about 5:1. Applies only above `ratioFloorBytes`, so a tiny, very regular file is not refused for it.
   */
  maxCompressionRatio: number;
  ratioFloorBytes: number;
  /** A sidecar or album metadata.json larger than this is not read (real ones are a few KB). */
  maxJsonBytes: number;
  /** Entries across all parts; past it the rest is reported, not listed (bounds the memory of the index). */
  maxEntries: number;
}

export interface TakeoutOptions {
  /** A scratch folder the library may use (tgz extraction), on the same disk as the download destinations. */
  workDir: string;
  limits?: Partial<TakeoutLimits>;
  signal?: AbortSignal;
}

export const DEFAULT_LIMITS: TakeoutLimits = {
  maxEntryBytes: 50 * 1024 ** 3,
  maxCompressionRatio: 200,
  ratioFloorBytes: 10 * 1024 ** 2,
  maxJsonBytes: 1024 ** 2,
  maxEntries: 1_000_000,
};

export function resolveLimits(given: Partial<TakeoutLimits> | undefined): TakeoutLimits {
  return { ...DEFAULT_LIMITS, ...given };
}

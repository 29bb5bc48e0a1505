/**
 * Errors the media adapters throw. They carry enough to tell an administrator what failed (which tool,
 * which file, the tail of its stderr) without the caller parsing messages. Services map them to their own
 * domain errors (a missing binary is "Unavailable", a broken file is a job failure on that asset).
 */

/** A required external program (ffmpeg, ffprobe) could not be found. */
export class MediaToolMissingError extends Error {
  override readonly name = 'MediaToolMissingError';
  constructor(
    readonly tool: string,
    readonly searched: string[],
  ) {
    super(
      `${tool} not found (looked at: ${searched.join(', ') || 'nothing'}). ` +
        `Install ffmpeg (Debian: apt-get install ffmpeg) or set ${tool.toUpperCase()}_PATH to the binary.`,
    );
  }
}

/** An external program ran and failed, timed out, or produced output we could not use. */
export class MediaToolError extends Error {
  override readonly name = 'MediaToolError';
  constructor(
    readonly tool: string,
    /** What we were doing, in words: "probe", "poster frame", "web transcode". */
    readonly action: string,
    readonly input: string,
    readonly detail: string,
    readonly exitCode: number | null = null,
    readonly stderrTail = '',
  ) {
    super(`${tool} ${action} failed for ${input}: ${detail}${stderrTail ? ` — ${stderrTail}` : ''}`);
  }
}

/** The file's content cannot be decoded as the format it claims (or is too large to decode safely). */
export class MediaDecodeError extends Error {
  override readonly name = 'MediaDecodeError';
  constructor(
    readonly input: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot decode ${input}: ${detail}`, options);
  }
}

/**
 * The file itself is damaged, cut short or not decodable as what it claims to be: retrying cannot help.
 * `reason` is a fixed sentence for people (the asset's `last_error`, the upload receipt): the same for every
 * file of the same kind and damage, whatever the tool printed this time (libvips and ffmpeg messages carry
 * buffer addresses and leftovers of other decodes). `detail` keeps the tool's own words for the log.
 */
export class MediaDamagedError extends Error {
  override readonly name = 'MediaDamagedError';
  constructor(
    readonly reason: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

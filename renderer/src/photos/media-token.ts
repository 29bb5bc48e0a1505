/**
 * The short-lived media token for <img>/<video> URLs (`?mt=`): browsers cannot put a bearer header
 * on those requests. One token is shared by the whole tab and renewed a minute before it expires
 * (10 minutes) while any component uses it. An image keeps the URL it loaded with; only images that
 * load later, or fail, use the newer token (see Thumbnail), so a renewal does not reload the grid.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api/client';
import { request } from '../api/problem';
import { session } from '../api/session';

const RENEW_AHEAD_MS = 60_000;
const RETRY_MS = 15_000;

class MediaTokens {
  private token: string | null = null;
  /** Local-clock time after which the token is not to be used for new URLs. */
  private renewAt = 0;
  private fetching: Promise<string | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor() {
    session.onUserChange((user, previous) => {
      if (!user || (previous && previous.user_id !== user.user_id)) this.clear();
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.schedule();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopTimer();
    };
  };

  readonly current = (): string | null => this.token;

  /** Whether `token` is the current one and not near its expiry (a failed load was not its fault). */
  isFresh(token: string): boolean {
    return token === this.token && Date.now() < this.renewAt;
  }

  /** A token good for at least a minute, fetching one when needed. */
  async get(): Promise<string | null> {
    if (this.token && Date.now() < this.renewAt) return this.token;
    return this.renew();
  }

  /** Fetches a new token now (e.g. an image was refused: the token may have expired while the tab slept). */
  renew(): Promise<string | null> {
    this.fetching ??= request(api.GET('/api/v1/auth/media-token'))
      .then((t) => {
        const lifetime = Date.parse(t.expires_at) - Date.now();
        // A device clock far off the server's: assume the documented 10 minutes.
        const ms = lifetime > 2 * RENEW_AHEAD_MS && lifetime <= 60 * 60_000 ? lifetime : 10 * 60_000;
        this.token = t.token;
        this.renewAt = Date.now() + ms - RENEW_AHEAD_MS;
        this.emit();
        this.schedule();
        return this.token;
      })
      .catch(() => {
        this.stopTimer();
        if (this.listeners.size) this.timer = setTimeout(() => void this.renew(), RETRY_MS);
        return this.token;
      })
      .finally(() => {
        this.fetching = null;
      });
    return this.fetching;
  }

  private schedule(): void {
    this.stopTimer();
    if (this.listeners.size === 0) return;
    const delay = this.token ? Math.max(this.renewAt - Date.now(), 1_000) : 0;
    this.timer = setTimeout(() => void this.renew(), delay);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private clear(): void {
    this.stopTimer();
    this.token = null;
    this.renewAt = 0;
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

export const mediaTokens = new MediaTokens();

/** The current media token (null until the first one arrives); renewed in the background. */
export function useMediaToken(): string | null {
  const token = useSyncExternalStore(mediaTokens.subscribe, mediaTokens.current);
  useEffect(() => {
    if (!token) void mediaTokens.get();
  }, [token]);
  return token;
}

type MediaKind = 'thumbnail-small' | 'thumbnail-medium' | 'thumbnail-large' | 'original' | 'video' | 'audio';

/** The URL of an asset's media file with a media token. */
export function mediaUrl(assetId: string, kind: MediaKind, token: string): string {
  const id = encodeURIComponent(assetId);
  const mt = `mt=${encodeURIComponent(token)}`;
  if (kind === 'original') return `/api/v1/assets/${id}/original?${mt}`;
  if (kind === 'video') return `/api/v1/assets/${id}/video/web?${mt}`;
  if (kind === 'audio') return `/api/v1/assets/${id}/audio/web?${mt}`;
  return `/api/v1/assets/${id}/thumbnail?size=${kind.slice('thumbnail-'.length)}&${mt}`;
}

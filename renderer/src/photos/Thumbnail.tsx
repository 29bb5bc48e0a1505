/**
 * One asset's thumbnail through a media token URL. The URL is fixed once the image loads, so a token
 * renewal does not reload it. When loading fails and a newer token exists (or can be fetched once),
 * it tries again with that; otherwise it shows a placeholder (still processing, or no thumbnail),
 * and remembers the failure so that no other Thumbnail of this asset and size asks again
 * (failed-thumbnails.ts).
 */
import { useEffect, useState } from 'react';
import { failedThumbnails } from './failed-thumbnails';
import { mediaTokens, mediaUrl, useMediaToken } from './media-token';

interface ThumbnailProps {
  assetId: string;
  size: 'small' | 'medium' | 'large';
  alt: string;
  className?: string;
  /** Shown instead of the image when there is none (yet). */
  fallback: React.ReactNode;
  /**
   * Not yet: render nothing (the tile's empty square) and ask for no image. Once false the image
   * loads, and it stays when `defer` turns true again (the grid defers during a fling).
   */
  defer?: boolean;
}

export function Thumbnail({ assetId, size, alt, className, fallback, defer = false }: ThumbnailProps) {
  const token = useMediaToken();
  const [started, setStarted] = useState(!defer);
  if (!defer && !started) setStarted(true);
  // The token at hand is used from the first render: a tile mounts once, straight with its image,
  // rather than with its placeholder and again a moment later (that doubled the grid's work per tile).
  const [used, setUsed] = useState<string | null>(token);
  const [retried, setRetried] = useState(false);
  const [broken, setBroken] = useState(() => failedThumbnails.has(assetId, size));

  useEffect(() => {
    if (token && !used) setUsed(token);
  }, [token, used]);

  if (!started) return null;
  if (!used || broken) return <>{fallback}</>;

  const onError = async () => {
    // A good token was used: there is no thumbnail (yet). Otherwise the token may have expired while
    // the tab slept: try once more with a newer one.
    if (retried || mediaTokens.isFresh(used)) {
      failedThumbnails.add(assetId, size);
      return setBroken(true);
    }
    setRetried(true);
    const fresh = mediaTokens.current() !== used ? mediaTokens.current() : await mediaTokens.renew();
    if (fresh && fresh !== used) setUsed(fresh);
    else {
      failedThumbnails.add(assetId, size);
      setBroken(true);
    }
  };

  return (
    <img
      className={className}
      src={mediaUrl(assetId, `thumbnail-${size}`, used)}
      alt={alt}
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={() => void onError()}
    />
  );
}

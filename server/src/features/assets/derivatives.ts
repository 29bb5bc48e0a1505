/**
 * Where derivatives live: `<dataDir>/derivatives/<aa>/<asset_id>/…` (aa = first two hex digits).
 * Derivatives are a cache of the catalog, not part of the household's folders: repositories stay
 * exactly as the family keeps them, and everything here can be rebuilt with reprocessAsset.
 */
import path from 'node:path';

export type ThumbSize = 'small' | 'medium' | 'large';

export class DerivativePaths {
  constructor(private readonly root: string) {}

  dir(assetId: string): string {
    return path.join(this.root, assetId.slice(0, 2), assetId);
  }
  thumbnail(assetId: string, size: ThumbSize): string {
    return path.join(this.dir(assetId), `${size}.webp`);
  }
  poster(assetId: string): string {
    return path.join(this.dir(assetId), 'poster.jpg');
  }
  webVideo(assetId: string): string {
    return path.join(this.dir(assetId), 'web.mp4');
  }
  /** The playable clip of a motion photo (a still with its video embedded in the same file). */
  motionVideo(assetId: string): string {
    return path.join(this.dir(assetId), 'motion.mp4');
  }
  webAudio(assetId: string): string {
    return path.join(this.dir(assetId), 'web.mp3');
  }
}

/**
 * Apply an EXIF orientation (1-8) to a sharp pipeline explicitly.
 *
 * sharp's autoOrient reads the Orientation tag of the input itself, which covers JPEG/PNG/WebP/TIFF. RAW
 * previews are different: the orientation lives in the RAW's IFD0 while the embedded JPEG usually has none
 * (or a stale one), so it has to be applied from outside. sharp always mirrors (flip/flop) before rotating,
 * so each orientation is expressed as "mirror, then rotate clockwise":
 *   2 mirror horizontal · 3 rotate 180 · 4 mirror vertical · 5 transpose = mirror horizontal + rotate 270
 *   6 rotate 90 · 7 transverse = mirror horizontal + rotate 90 · 8 rotate 270
 * test/server/media/thumbnails.test.ts checks this against sharp's autoOrient on all eight corpus files.
 */
import type { Sharp } from 'sharp';

export function applyOrientation(pipeline: Sharp, orientation: number | null | undefined): Sharp {
  switch (orientation) {
    case 2:
      return pipeline.flop();
    case 3:
      return pipeline.rotate(180);
    case 4:
      return pipeline.flip();
    case 5:
      return pipeline.flop().rotate(270);
    case 6:
      return pipeline.rotate(90);
    case 7:
      return pipeline.flop().rotate(90);
    case 8:
      return pipeline.rotate(270);
    default:
      return pipeline;
  }
}

/** Orientations 5-8 swap width and height. */
export function swapsAxes(orientation: number | null | undefined): boolean {
  return orientation !== null && orientation !== undefined && orientation >= 5 && orientation <= 8;
}

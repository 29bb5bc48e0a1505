/**
 * Types for heic-decode 2.1.0, which ships none. Shapes checked against node_modules/heic-decode/lib.js:
 * `decode({buffer})` decodes the first top-level image; `decode.all({buffer})` lists them with their size and
 * decodes lazily, and must be disposed.
 */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 8 bits per channel, row-major, no padding. */
    data: Uint8ClampedArray;
  }
  interface LazyImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  interface HeicDecode {
    (input: { buffer: Uint8Array | ArrayBuffer }): Promise<DecodedImage>;
    all(input: { buffer: Uint8Array | ArrayBuffer }): Promise<LazyImage[] & { dispose(): void }>;
  }
  const decode: HeicDecode;
  export default decode;
}

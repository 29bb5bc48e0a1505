import sharp from 'sharp';
import { MlRuntime } from './server/src/adapters/ml/index.ts';
async function crop(rotate: boolean) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="192" height="48"><rect width="192" height="48" fill="white"/><text x="6" y="36" font-family="sans-serif" font-size="30" fill="black">Hello 2024</text></svg>`;
  let img = sharp(Buffer.from(svg));
  if (rotate) img = img.rotate(180);
  const { data } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return data;
}
function tensor(crops: Buffer[]) {
  const out = new Float32Array(crops.length * 3 * 48 * 192);
  const plane = 48 * 192;
  crops.forEach((rgb, n) => {
    for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) out[n * 3 * plane + c * plane + i] = (rgb[i * 3 + (2 - c)]! / 255 - 0.5) / 0.5;
  });
  return out;
}
const ml = new MlRuntime({ modelsDir: '/work/shared/models', dataDir: null });
const x = tensor([await crop(false), await crop(true)]);
const t = Date.now();
const out = await ml.run('ppocr-cls', { x: { type: 'float32', dims: [2, 3, 48, 192], data: x } });
console.log(Date.now() - t, out, x.byteLength);
try { await ml.run('ppocr-cls', { x: { type: 'float32', dims: [3, 48, 192], data: new Float32Array(3*48*192) } }); } catch (e) { console.log('E', (e as Error).name, (e as Error).message); }
console.log(JSON.stringify(ml.pool.diagnostics()));
const caps = await ml.catalog.capabilities(); console.log(JSON.stringify(caps, null, 1).slice(0, 1500));
await ml.close();

/**
 * Camera names from the makes and models the corpus' cameras record (MANIFEST.md): the brand once,
 * the model's own copy of the make not repeated, company words gone, nothing of the model lost.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandOf, cameraName } from '../../../server/src/features/statistics/camera-names.ts';

test('cameras recorded by real files are named by brand and model, the make never twice', () => {
  const cases: [string | null, string, string][] = [
    ['Canon', 'Canon EOS 350D DIGITAL', 'Canon EOS 350D DIGITAL'],
    ['Canon', 'Canon EOS-1D X Mark II', 'Canon EOS-1D X Mark II'],
    ['NIKON CORPORATION', 'NIKON D70', 'Nikon D70'],
    ['NIKON', 'COOLPIX P6000', 'Nikon COOLPIX P6000'],
    ['OLYMPUS IMAGING CORP.', 'E-M10', 'Olympus E-M10'],
    ['PENTAX Corporation', 'PENTAX K10D', 'Pentax K10D'],
    ['EASTMAN KODAK COMPANY', 'KODAK DC240 ZOOM DIGITAL CAMERA', 'Kodak DC240 ZOOM DIGITAL CAMERA'],
    ['Eastman Kodak Company', 'DC210 Zoom (V05.00)', 'Kodak DC210 Zoom (V05.00)'],
    ['CASIO COMPUTER CO.,LTD.', 'EX-M2', 'Casio EX-M2'],
    ['SANYO Electric Co.,Ltd.', 'SX113', 'Sanyo SX113'],
    ['FUJIFILM', 'FinePix S5Pro', 'Fujifilm FinePix S5Pro'],
    ['Apple', 'iPhone 11 Pro', 'Apple iPhone 11 Pro'],
    ['samsung', 'SM-G975F', 'Samsung SM-G975F'],
    ['Jolla', 'Jolla', 'Jolla'],
    ['HMD Global', 'Nokia 8.3 5G', 'Nokia 8.3 5G'],
    ['WWL', 'ION230', 'WWL ION230'],
    [null, 'Pixel 7', 'Pixel 7'],
    ['  ', 'ILCE-7M3', 'ILCE-7M3'],
  ];
  for (const [make, model, name] of cases) assert.equal(cameraName(make, model), name, `${make} + ${model}`);
  assert.equal(brandOf('Acme Optical Co., Ltd.'), 'Acme', 'an unknown maker loses its company words');
});

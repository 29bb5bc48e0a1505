/** The corpus GPS files (../shared/corpus/gps) and the places their labels name, for the places tests. */
import fs from 'node:fs';
import { corpusFile } from '../repositories/helpers.ts';

/** What each corpus GPS file is labelled with (MANIFEST.md gps/): the town (where the label names one), region and country. */
export const CORPUS_PLACES: Record<string, { city?: string; region?: string; country: string }> = {
  'Canon_600D_gps.jpg': { city: 'Yosemite Valley', region: 'California', country: 'United States' },
  'DSCN0010.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0012.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0021.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0025.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0027.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0029.jpg': { region: 'Tuscany', country: 'Italy' },
  'DSCN0038.jpg': { region: 'Tuscany', country: 'Italy' },
  'HMD_Nokia_8.3_5G.jpg': { city: 'Helsinki', country: 'Finland' },
  'Hasselblad_L1D-20c_drone.jpg': { country: 'Austria' },
  'Kodak_CX7530_kenya.jpg': { country: 'Kenya' },
  'Nikon_D70s_gps.jpg': { city: 'Florence', region: 'Tuscany', country: 'Italy' },
  'Samsung_SM-G930F_gps_no_date.jpg': { country: 'Germany' },
  'big_ben.jpg': { city: 'London', region: 'England', country: 'United Kingdom' },
  'big_ben_no_tsoffset_but_gps_utc.jpg': { city: 'London', region: 'England', country: 'United Kingdom' },
  'sydney_opera_house.jpg': { city: 'Sydney', region: 'New South Wales', country: 'Australia' },
  // The MANIFEST says Utah; the position (39.115, -108.401) is in Colorado, by Grand Junction.
  'thompson-springs.jpg': { region: 'Colorado', country: 'United States' },
};

type Labels = Record<string, { expected_metadata: { gps?: { lat: number; lon: number } } }>;
export const corpusLabels = (): Labels => JSON.parse(fs.readFileSync(corpusFile('gps/labels.json'), 'utf8')) as Labels;


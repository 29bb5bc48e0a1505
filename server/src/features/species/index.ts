/** Species reference cards from iNaturalist, cached in the catalog (getSpeciesReference). */
export { SpeciesService, FRESH_MS, MISS_MS } from './species.service.ts';
export { SpeciesStore } from './species.store.ts';
export { INaturalistClient } from './inaturalist.client.ts';

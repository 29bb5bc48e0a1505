/**
 * Species: the reference card of a species (names, Wikipedia summary, reference image and its attribution)
 * from iNaturalist, kept in the catalog.
 *
 * | operationId         | method and path                |
 * |---------------------|--------------------------------|
 * | getSpeciesReference | GET /api/v1/species/reference  |
 *
 * Decisions: see species.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';

const TAG = 'Species';
export const SPECIES_NAME_MAX = 200;
/** A language tag as iNaturalist takes it: a language, then optional script/region/variant parts (`pt-BR`, `zh_Hant`). */
const LOCALE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/;

const name = (description: string, example: string) =>
  singleLine(z.string().trim().max(SPECIES_NAME_MAX, `must be at most ${SPECIES_NAME_MAX} characters`))
    .optional()
    .openapi({ description, example });

export const SpeciesQuerySchema = z.object({
  scientific_name: name('Scientific name, searched first (for example a species label of a photo). Trimmed, at most 200 characters.', 'Turdus merula'),
  common_name: name('Common name, searched when there is no scientific name or it matched nothing. At least one of the two names is required.', 'Eurasian Blackbird'),
  locale: z
    .string()
    .trim()
    .max(35, 'must be at most 35 characters')
    .regex(LOCALE, 'must be a language tag such as en, de or pt-BR')
    .optional()
    .openapi({ description: 'Language of the common name and summary, a language tag (`en`, `de`, `pt-BR`). Default `en`.', example: 'de' }),
});
export type SpeciesQueryInput = z.output<typeof SpeciesQuerySchema>;

const nullableText = (description: string) => z.string().nullable().openapi({ description });

export const SpeciesReferenceSchema = z
  .object({
    taxon_id: z.number().int().openapi({ description: 'iNaturalist taxon id.', example: 12716 }),
    scientific_name: z.string().openapi({ example: 'Turdus merula' }),
    common_name: nullableText('The preferred common name in `locale` (null when iNaturalist has none).'),
    rank: nullableText('Taxonomic rank: `species`, `subspecies`, `genus`, …'),
    iconic_taxon_name: nullableText('The broad group iNaturalist files it under: `Aves`, `Plantae`, `Insecta`, …'),
    summary: nullableText('The Wikipedia summary as plain text (no markup).'),
    wikipedia_url: nullableText('The Wikipedia article.'),
    image: z
      .object({
        url: z.string().openapi({ description: 'Reference photo, medium size (about 500 px).' }),
        square_url: z.string().nullable().openapi({ description: 'The same photo, a 75 px square.' }),
        attribution: z.string().nullable().openapi({ description: 'Who took it and on what terms; show it with the photo.' }),
        license_code: z.string().nullable().openapi({ description: 'Its licence, e.g. `cc-by-nc`; null: all rights reserved.' }),
      })
      .nullable()
      .openapi({ description: 'Reference photo (null when the taxon has none).' }),
    source: z.literal('inaturalist'),
    source_url: z.string().openapi({ description: 'The taxon on iNaturalist.', example: 'https://www.inaturalist.org/taxa/12716' }),
    matched_by: z.enum(['scientific_name', 'common_name']).openapi({ description: 'Which of the names asked found it.' }),
    locale: z.string().openapi({ description: 'The locale asked, normalised (`pt-BR`).' }),
    fetched_at: z.string().openapi({ description: 'When iNaturalist gave this card, ISO 8601.' }),
    cached: z.boolean().openapi({ description: 'Answered from the catalog (true), or fetched from iNaturalist for this request (false).' }),
  })
  .openapi('SpeciesReference');

export const getSpeciesReference = defineRoute('user', {
  method: 'get',
  path: '/species/reference',
  operationId: 'getSpeciesReference',
  summary: 'Reference card of a species (names, summary, image) from iNaturalist',
  description: [
    'Looks the species up on iNaturalist (taxa search; the active taxon of that exact scientific name first, then the first active result), by `scientific_name`, then by `common_name` when there is none or it matched nothing.',
    'Cards are kept in the catalog: fresh for 30 days (`cached: true`, no network); an older card is fetched again, and still answered when iNaturalist cannot be reached. "No such species" (404 `species_not_found`) is remembered for a day.',
    'Nothing kept and no internet (or no answer in time): 503 `species_reference_offline`; iNaturalist answering an error or garbage: 502 `species_reference_unavailable`.',
  ].join('\n\n'),
  tags: [TAG],
  request: { query: SpeciesQuerySchema },
  responses: {
    200: jsonResponse(SpeciesReferenceSchema),
    ...errorResponses(404, 502, 503),
  },
});

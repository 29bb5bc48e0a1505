/** The assistant's resources as the contract shows them (1-resources-states-auth.md, "Agent resources"). */
import { z } from '@hono/zod-openapi';

const Named = z.array(z.object({ name: z.string(), count: z.number().int() }));

export const FacetsSchema = z
  .object({
    count: z.number().int(),
    types: z.record(z.string(), z.number().int()),
    cameras: Named,
    lenses: Named,
    focal_lengths: Named,
    top_places: Named,
    top_people: Named.openapi({ description: 'Your named people in these photos (a partner’s names never show).' }),
    date_range: z.object({ from: z.string().nullable(), to: z.string().nullable() }).openapi({ description: 'Local capture days, YYYY-MM-DD.' }),
    histogram: z.array(z.object({ bucket: z.string(), count: z.number().int() })),
    histogram_granularity: z.enum(['day', 'month', 'year']),
    liked_count: z.number().int(),
    rating_dist: z.array(z.number().int()).openapi({ description: 'Counts of ratings 0 (unrated) to 5.' }),
    quality: z.object({ p25: z.number().nullable(), p50: z.number().nullable(), p75: z.number().nullable(), p90: z.number().nullable(), scored: z.number().int(), unscored: z.number().int() }),
  })
  .openapi('AgentFacets');

export const LayoutSchema = z
  .strictObject({
    x: z.number().int().min(0).max(11),
    y: z.number().int().min(0).max(10_000),
    w: z.number().int().min(1).max(12),
    h: z.number().int().min(1).max(24),
  })
  .openapi('AgentPinLayout', { description: 'Place on a 12-column board: x + w ≤ 12.' });

export const WIDGETS = ['cover_card', 'number_card', 'spark_card', 'mosaic_card'] as const;

export const PinSchema = z
  .object({
    pin_id: z.uuid(),
    title: z.string(),
    widget: z.enum(WIDGETS),
    mode: z.enum(['live', 'frozen']),
    hydration_source: z.enum(['live_replay', 'snapshot']),
    fallback_reason: z.string().nullable(),
    last_successful_refresh_at: z.string().nullable(),
    summary: z.string(),
    count: z.number().int(),
    truncated: z.boolean(),
    created_at: z.string(),
    layout: LayoutSchema,
    facets: FacetsSchema,
    thread_id: z.string().nullable(),
    ref_id: z.string().nullable(),
  })
  .openapi('AgentPin');

export const RefSchema = z
  .object({ ref_id: z.string(), op: z.string(), count: z.number().int(), truncated: z.boolean(), created_at: z.string(), facets: FacetsSchema })
  .openapi('AgentRef');

export const ToolDescriptorSchema = z
  .object({ name: z.string(), desc: z.string(), extra: z.record(z.string(), z.unknown()) })
  .openapi('AgentToolDescriptor', { description: '`extra`: `kind` (producer, lookup, transformer, inspector, show, effect), `confirmation` (an effect asks first), `parameters` (JSON Schema).' });

export const ToolSchemaSchema = z
  .object({ name: z.string(), kind: z.string(), confirmation: z.boolean(), modes: z.array(z.string()), parameters: z.record(z.string(), z.unknown()) })
  .openapi('AgentToolSchema');

export const ReceiptSchema = z
  .object({
    effect_id: z.string(),
    tool_name: z.string(),
    status: z.string(),
    count: z.number().int(),
    album_id: z.number().int().optional(),
    message: z.string(),
    already_committed: z.boolean().optional(),
  })
  .openapi('AgentEffectReceipt');

export const EffectStatusSchema = z
  .object({
    effect_id: z.string(),
    status: z.enum(['pending', 'committed', 'rejected', 'cancelled', 'failed']),
    tool_name: z.string(),
    run_id: z.string(),
    confirmation: z.record(z.string(), z.unknown()),
    receipt: ReceiptSchema.nullable(),
  })
  .openapi('AgentEffectStatus');

/**
 * The answers' shapes of people and faces (separate from the routes: getAsset's detail uses FaceResultSchema).
 * The contract's Person resource (a face cluster) is `RecognisedPerson` in the OpenAPI document; a household
 * member as others see them is `Member` (features/users/members.ts).
 */
import { z } from '@hono/zod-openapi';

export const PersonSchema = z
  .object({
    person_id: z.number().int(),
    name: z.string().nullable(),
    is_confirmed: z.boolean().openapi({ description: 'A member named or corrected this person: a rebuild never deletes it.' }),
    is_hidden: z.boolean(),
    hidden_at: z.string().nullable(),
    member_count: z.number().int().openapi({ description: 'Faces of this person.' }),
    asset_count: z.number().int().openapi({ description: 'Photos (not in the Trash) with this person.' }),
    representative_asset_id: z.string().nullable(),
    cover_face_id: z.number().int().nullable().openapi({ description: 'The face chosen as cover; null: the best face is.' }),
    cover_face_image_path: z.string().nullable().openapi({ description: 'getPersonCover of this person; null when it has no face.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('RecognisedPerson');

export const FaceSchema = z
  .object({
    face_id: z.number().int(),
    bounding_box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).openapi({ description: 'Normalised 0..1 to the upright image.' }),
    confidence: z.number(),
    person_id: z.number().int().nullable(),
    person_name: z.string().nullable(),
    is_primary: z.boolean().openapi({ description: 'The largest face of the photo.' }),
  })
  .openapi('Face');

export const FaceResultSchema = z
  .object({
    model_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    total_faces: z.number().int(),
    faces: z.array(FaceSchema),
  })
  .openapi('FaceResult');


/** The WebAuthn answer a browser sends (shared by passkey sign-in, enrolment and step-up proofs). */
import { z } from '@hono/zod-openapi';

const ChallengeToken = z.string().min(1).max(200).openapi({ description: 'The `challenge_token` of the ceremony’s begin call (5 minutes, answered once).' });

/** A browser's PublicKeyCredential as JSON (`toJSON()`, or @simplewebauthn/browser's answer); checked by the service. */
const CredentialJson = z
  .object({
    id: z.string().min(1).max(1400),
    rawId: z.string().min(1).max(1400),
    type: z.literal('public-key'),
    response: z.object({}).passthrough(),
    clientExtensionResults: z.object({}).passthrough().optional(),
    authenticatorAttachment: z.string().max(40).nullable().optional(),
  })
  .passthrough()
  .openapi('PublicKeyCredentialJson', { description: 'What the browser’s navigator.credentials answered, as JSON (base64url fields).' });

export const PasskeyAnswer = z.strictObject({ challenge_token: ChallengeToken, credential: CredentialJson });

/** The OpenAI-compatible model client (client.ts) and what its callers build requests from. */
export { LlmClient, DEFAULT_RETRY, type ChatEvent, type ChatRequest, type ChatTurn, type LlmEndpoint, type RetryPolicy } from './client.ts';
export * from './errors.ts';
export { PROVIDERS, PROVIDER_KINDS, localityOf, normaliseBaseUrl, type ModelLocality, type ProviderFacts, type ProviderKind } from './providers.ts';
export { checkToolCall, type ArgumentsCheck, type ToolCall, type ToolCallStatus, type ToolSpec } from './tool-calls.ts';
export {
  DATA_IS_NOT_INSTRUCTIONS,
  assistantTurn,
  dataMessage,
  fencedJson,
  instructions,
  joinInstructions,
  systemMessage,
  toolCallRefused,
  toolFailed,
  toolResult,
  userRequest,
  type TrustedInstructions,
} from './messages.ts';
export type { ChatMessage, JsonSchema, TokenUsage, FinishReason } from './wire.ts';

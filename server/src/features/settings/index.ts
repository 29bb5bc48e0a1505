/**
 * The settings feature's public surface: the model connection the assistant (features/agent) asks for a client,
 * built from the administrator's saved model settings.
 */
export { LlmConnection, type LlmTarget, type LlmCandidate } from './llm-connection.ts';

/**
 * The Board of pins: its address and the hook that says whether the assistant is on (the chat panel in
 * features/assistant uses it too). The pages are routed by the app.
 */
export { BOARD_PATH } from './board-path';
export { useAssistantEnabled, ASSISTANT_ENABLED_KEY } from './use-assistant-enabled';
export { BOARD_PINS_KEY } from './board-keys';

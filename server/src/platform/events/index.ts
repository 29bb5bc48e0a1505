export { EventBus } from './event-bus.ts';

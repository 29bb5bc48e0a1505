export { ChangeBus } from './change-bus.ts';

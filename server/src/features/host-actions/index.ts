/** Host actions' public surface: what the composition root builds and mounts. */
export { HostActionsService } from './host-actions.service.ts';
export { hostActionsRouter } from './host-actions.router.ts';
export { HostApproval } from './approval.ts';
export { HostActionLifecycle } from './lifecycle.ts';
export { HostActionEvents } from './host-action-events.ts';
export { HostActionsStore } from './host-actions.store.ts';
export { HostChannelServer } from './host-channel.server.ts';
export { defaultRiskOptions } from './folder-risks.ts';

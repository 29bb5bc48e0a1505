/** The sharing feature's public surface: partners (for the timeline) and the router (see eslint.config.js). */
export { PartnerSharesStore, type ReceivedShare } from './partners.store.ts';

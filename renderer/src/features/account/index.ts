/** The account feature's public surface: its page (routed by the app), and the recovery codes shown once (staged registration shows them too). */
export { AccountPage } from './AccountPage';
export { RecoveryCodesShown } from './security/RecoveryCodesShown';

/** The account feature's public surface: its page (routed by the app), and what staged registration shows too (the recovery codes shown once, the TOTP key). */
export { AccountPage } from './AccountPage';
export { RecoveryCodesShown } from './security/RecoveryCodesShown';
export { TotpQrImage, groupedKey } from './security/TotpQrImage';

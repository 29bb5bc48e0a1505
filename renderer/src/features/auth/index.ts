/** The sign-in feature's public surface: its pages (routed by the app); no other feature uses it. */
export { ChoosePasswordPage } from './ChoosePasswordPage';
export { CreateAccountPage } from './CreateAccountPage';
export { FirstRunPage } from './FirstRunPage';
export { SignInPage } from './SignInPage';

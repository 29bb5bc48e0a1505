/** The admin feature's public surface: its addresses (the people page links to Models). Its pages are routed by the app. */
export { ADMIN_MODELS_PATH } from './admin-paths';

/** The admin pages' addresses (the app routes them; the people page links to Models). */
export const ADMIN_PATH = '/admin';
export const ADMIN_REPOSITORIES_PATH = '/admin/repositories';
export const ADMIN_JOBS_PATH = '/admin/jobs';
export const ADMIN_MODELS_PATH = '/admin/models';
export const ADMIN_ASSISTANT_PATH = '/admin/assistant';

/** The typed Hono environment shared by every router: what middleware puts on the context. */
import type { Logger } from '../logger.ts';

/**
 * The application's services, as routers and jobs see them. The platform layer knows no feature: this
 * interface is empty here and filled by the composition root (container.ts augments it with the
 * Container), so `c.get('container').albums` is typed without the platform importing the app.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in container.ts
export interface AppServices {}

export type Role = 'admin' | 'user';

/** Who is asking. Services take it first and decide; routers never check ownership themselves. */
export interface Actor {
  userId: number;
  username: string;
  role: Role;
  sessionId: string;
  /** How the caller proved itself: a bearer access token, or a media token on a media URL. */
  via: 'bearer' | 'media_token';
}

export type ApiVariant = 'A' | 'B';

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    container: AppServices;
    variant: ApiVariant;
    actor: Actor | null;
    /** File and stream routes: never enveloped in variant B, errors stay problem+json. */
    rawRoute: boolean;
    clientIp: string;
    /** True only when the request comes from this machine and not through a proxy. */
    isLocalRequest: boolean;
  };
}

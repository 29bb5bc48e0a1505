/** The typed Hono environment shared by every router: what middleware puts on the context. */
import type { Logger } from '../logger.ts';
import type { Container } from '../../container.ts';

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
    container: Container;
    variant: ApiVariant;
    actor: Actor | null;
    /** File and stream routes: never enveloped in variant B, errors stay problem+json. */
    rawRoute: boolean;
    clientIp: string;
    /** True only when the request comes from this machine and not through a proxy. */
    isLocalRequest: boolean;
  };
}

/** The typed Hono environment shared by every router: what middleware puts on the context. */
import type { Logger } from '../logger.ts';

/**
 * The application's services (the container's members). The platform layer knows no feature: this
 * interface is empty here and filled by the composition root (container.ts augments it with the
 * Container), so a router's `services(c).albums` is typed without the platform importing the app.
 * Nobody is handed all of it: a router declares the ones it uses (`routerUsing`, router.ts), a job
 * likewise (`uses`, platform/jobs/registry.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in container.ts
export interface AppServices {}

/** A service's name: one of the container's members. */
export type ServiceName = keyof AppServices;

declare const sealed: unique symbol;
/**
 * The application's services as they ride on a request (`c.get('container')`): sealed. The handle has no
 * members, so `c.get('container').albums` does not type-check (and is undefined at run time); only
 * services.ts opens it, for the services a router or middleware declared (`servicesOf`).
 */
export interface ServiceHandle {
  readonly [sealed]: 'sealed application services';
}

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
    /** Sealed: reach services through `routerUsing`/`servicesOf` (services.ts), never through the handle. */
    container: ServiceHandle;
    variant: ApiVariant;
    actor: Actor | null;
    /** File and stream routes: never enveloped in variant B, errors stay problem+json. */
    rawRoute: boolean;
    clientIp: string;
    /** True only when the request comes from this machine and not through a proxy. */
    isLocalRequest: boolean;
  };
}

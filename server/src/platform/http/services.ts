/**
 * How request handlers reach the application's services: each router (and middleware) declares the ones it
 * uses, in the style of the jobs' `uses` (platform/jobs/registry.ts), and gets those and nothing else.
 *
 * app.ts seals the container once (`sealServices`) and puts the handle on every request; the handle has no
 * members, and this file is the only one that opens it. `servicesOf(uses)(c)` answers a frozen object
 * holding only the declared services, typed `Pick<AppServices, U>`: reaching an undeclared one is a type
 * error, and undefined at run time. Routers stay buildable without a container (api.ts, scripts/gen-api.ts):
 * the services are looked up per request, not when the router is made.
 */
import type { Context } from 'hono';
import type { AppEnv, AppServices, ServiceHandle, ServiceName } from './context.ts';

const opened = new WeakMap<ServiceHandle, AppServices>();

/** The handle app.ts puts on every request (one per app): it reveals nothing by itself. */
export function sealServices(services: AppServices): ServiceHandle {
  const handle = Object.freeze(Object.create(null)) as ServiceHandle;
  opened.set(handle, services);
  return handle;
}

/** The services a declaration names, picked once per handle (the container's members are never replaced). */
export function servicesOf<const U extends ServiceName>(uses: readonly U[]): (c: Context<AppEnv>) => Pick<AppServices, U> {
  const declared = Object.freeze([...uses]);
  const picked = new WeakMap<ServiceHandle, Pick<AppServices, U>>();
  return (c) => {
    const handle = c.get('container');
    let mine = picked.get(handle);
    if (!mine) {
      const all = opened.get(handle);
      if (!all) throw new Error('no application services on this request: app.ts seals them onto every request (sealServices)');
      mine = Object.freeze(Object.fromEntries(declared.map((name) => [name, all[name]]))) as Pick<AppServices, U>;
      picked.set(handle, mine);
    }
    return mine;
  };
}

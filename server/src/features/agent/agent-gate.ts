/**
 * The assistant's switch: off unless an administrator turned it on (`llm.agent_enabled`), and then every
 * operation of the Agent group (the contract's and the extensions') answers 404 `agent_disabled`, after sign-in.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { servicesOf } from '../../platform/http/services.ts';

const gateServices = servicesOf(['agent']);
/** The assistant is off unless an administrator turned it on: then the whole group is 404 (after sign-in). */
export const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
  gateServices(c).agent.requireEnabled();
  await next();
};

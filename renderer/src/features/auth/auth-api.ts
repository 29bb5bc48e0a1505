/**
 * The calls that create a session. They go through the bare client: no bearer token exists yet, and
 * their 401s (wrong password, expired change link) must reach the form, not trigger a refresh.
 */
import { useQuery } from '@tanstack/react-query';
import { bareClient } from '../../api/bare-client';
import { request } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import type { paths } from '../../api/schema';

type JsonBody<P extends keyof paths, M extends 'post'> = paths[P][M] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type RegisterInput = JsonBody<'/api/v1/auth/register', 'post'>;
export type LoginInput = JsonBody<'/api/v1/auth/login', 'post'>;
export type MfaVerifyInput = JsonBody<'/api/v1/auth/mfa/verify', 'post'>;
export type CompletePasswordChangeInput = JsonBody<'/api/v1/auth/password-change/complete', 'post'>;

export const register = (body: RegisterInput) => request(bareClient.POST('/api/v1/auth/register', { body }));
export const startStagedRegistration = (body: RegisterInput) => request(bareClient.POST('/api/v1/auth/register/staged', { body }));
export const login = (body: LoginInput) => request(bareClient.POST('/api/v1/auth/login', { body }));
/** The second step of a sign-in (public: its 401s are a wrong code or an expired challenge, for the form). */
export const verifyMfa = (body: MfaVerifyInput) => request(bareClient.POST('/api/v1/auth/mfa/verify', { body }));
export const completePasswordChange = (body: CompletePasswordChangeInput) =>
  request(bareClient.POST('/api/v1/auth/password-change/complete', { body }));

/** Whether this install still needs its administrator, and what creating an account needs. */
export function useBootstrapStatus() {
  return useQuery({
    queryKey: queryKeys.bootstrap,
    queryFn: () => request(bareClient.GET('/api/v1/auth/bootstrap')),
    staleTime: 30_000,
  });
}

/** Short names for the generated schema types the UI passes around. */
import type { components } from './schema';

export type Session = components['schemas']['Session'];
export type User = components['schemas']['User'];
export type BootstrapStatus = components['schemas']['BootstrapStatus'];
export type SystemSettings = components['schemas']['SystemSettings'];
export type SystemSettingsPatch = components['schemas']['SystemSettingsPatch'];
export type Problem = components['schemas']['Problem'];
export type Role = User['role'];

import { DEFAULT_SETTINGS } from '#shared/config/settings';

/** Settings (not resources) every function reads from the environment, with their defaults. */
export const SETTINGS = DEFAULT_SETTINGS;

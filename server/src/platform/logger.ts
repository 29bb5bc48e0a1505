/** pino logging: one root logger, child loggers per module, request and job. */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** `destination`: where lines go (stdout by default); tests read the log through it. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({
    level,
    base: { app: 'hearth' },
    // Secrets must never reach a log line, whatever a caller passes in.
    redact: {
      paths: [
        'password',
        '*.password',
        'new_password',
        '*.new_password',
        'current_password',
        'refresh_token',
        '*.refresh_token',
        // Second factors (features/auth/mfa.service.ts): seeds, codes and their one-time tokens.
        'secret',
        '*.secret',
        // The language model's API key (config/settings.ts), wherever a settings patch is logged.
        'api_key',
        '*.api_key',
        '*.*.api_key',
        'recovery_code',
        '*.recovery_code',
        'recovery_codes',
        'mfa_token',
        'setup_token',
        'security_token',
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  }, destination);
}

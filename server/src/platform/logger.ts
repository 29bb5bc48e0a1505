/** pino logging: one root logger, child loggers per module, request and job. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
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
        'req.headers.authorization',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  });
}

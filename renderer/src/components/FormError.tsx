/**
 * The summary above a form after a failed submit. role="alert" so it is announced when it appears;
 * rendering nothing when there is no message keeps the alert from announcing stale text.
 */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="notice notice--error" role="alert">
      {message}
    </div>
  );
}

/** A quiet confirmation ("Saved.") announced politely. */
export function FormSuccess({ message }: { message: string | null | undefined }) {
  return (
    <div className="notice notice--success" role="status" hidden={!message}>
      {message}
    </div>
  );
}

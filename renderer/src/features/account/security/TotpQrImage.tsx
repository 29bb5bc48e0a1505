/**
 * What an authenticator app needs to add Hearth: the QR code of the otpauth URI (drawn by the home server,
 * `qr_svg`), shown as an image (never injected as markup), and the key grouped by four for typing by hand.
 * Used by Account → Security and by the staged registration's second half.
 */
export function TotpQrImage({ setup, className = 'qr-code' }: { setup: { qr_svg: string; issuer: string; account_name: string }; className?: string }) {
  return (
    <img
      className={className}
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
      alt={`QR code to add ${setup.issuer} (${setup.account_name}) to an authenticator app`}
      width={192}
      height={192}
    />
  );
}

/** The key in groups of four, easier to type from one screen into another. */
export const groupedKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

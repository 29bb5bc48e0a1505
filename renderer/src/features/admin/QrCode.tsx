/**
 * A QR code the server rendered as SVG text, shown as an image (never injected as markup), with the
 * address it encodes as its text alternative.
 */
export function QrCode({ svg, label }: { svg: string; label: string }) {
  return <img className="qr-code" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={`QR code for ${label}`} width={168} height={168} />;
}

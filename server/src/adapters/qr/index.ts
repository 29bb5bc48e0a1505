/**
 * QR codes for addresses a phone should open (the admin page's addresses, invite links).
 *
 * Made on the server as SVG text: the web UI shows it as an image without shipping a QR encoder in
 * its bundle, and the SVG stays sharp at any size. Error correction M: readable from a screen at an
 * angle, still small for a URL of ~80 characters.
 */
import QRCode from 'qrcode';

export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
}

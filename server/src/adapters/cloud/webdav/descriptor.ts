/** What the import settings draw for a WebDAV account: read by a household, so plain words. */
import type { ProviderDescriptor } from '../provider.ts';

export const WEBDAV_PROVIDER_ID = 'webdav';

export const webDavDescriptor: ProviderDescriptor = {
  id: WEBDAV_PROVIDER_ID,
  title: 'WebDAV (Nextcloud, ownCloud, NAS)',
  description:
    'Import photos and videos from a folder on a Nextcloud or ownCloud server, or from a NAS box that offers WebDAV ' +
    '(Synology, QNAP and most others can).',
  status: 'enabled',
  security_note:
    'Hearth stores the address, your user name and your password or app token, the password encrypted. It only reads ' +
    'from the server: nothing there is changed, written or deleted, now or when you remove photos here.',
  form_fields: [
    {
      name: 'url',
      label: 'WebDAV address',
      type: 'url',
      required: true,
      autocomplete: 'url',
      help_text:
        'The address your server gives for WebDAV. Nextcloud: Files → Settings (bottom left) shows it, for example ' +
        'https://cloud.example.com/remote.php/dav/files/anna/. A NAS shows it in its WebDAV settings.',
    },
    {
      name: 'username',
      label: 'User name',
      type: 'text',
      required: true,
      autocomplete: 'username',
      help_text: 'The name you sign in to the server with.',
    },
    {
      name: 'password',
      label: 'Password or app token',
      type: 'password',
      required: true,
      autocomplete: 'current-password',
      help_text:
        'For Nextcloud and ownCloud, create an app password, also called app token (Settings → Security → Devices & ' +
        'sessions), and use it here: you can revoke it on its own, and it works when two-factor sign-in is on.',
    },
    {
      name: 'trusted_fingerprint',
      label: 'Trusted certificate fingerprint (optional)',
      type: 'text',
      required: false,
      help_text:
        'Only for a server with a self-signed certificate, such as many NAS boxes: its SHA-256 fingerprint. Hearth ' +
        'shows it when the certificate is not trusted; compare it with the one in your server\'s settings before ' +
        'entering it. That certificate, and only that one, is then accepted.',
    },
  ],
  challenge_fields: [],
  scope_fields: [
    {
      name: 'folder',
      label: 'Folder to import',
      type: 'text',
      required: false,
      help_text: 'A folder on the server, for example Photos or Photos/2023. Leave it empty to import everything.',
    },
  ],
};

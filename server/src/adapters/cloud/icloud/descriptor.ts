/** What a client shows of the iCloud provider: the sign-in form, the code form, the promise about the password. */
import type { ProviderDescriptor } from '../provider.ts';
import { CODE_FIELD } from './sign-in.ts';

export const ICLOUD_DESCRIPTOR: ProviderDescriptor = {
  id: 'icloud',
  title: 'iCloud Photos',
  description: 'All photos and videos of your iCloud Photos library, with their originals, RAW files, Live Photo videos and albums.',
  status: 'enabled',
  security_note:
    'Your password is used once to sign in to Apple and is not stored. Hearth keeps the iCloud session, encrypted; it lasts about 90 days, then you sign in again. Nothing is changed or deleted in iCloud.',
  form_fields: [
    { name: 'username', label: 'Apple Account (email)', type: 'email', required: true, autocomplete: 'username' },
    { name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' },
    {
      name: 'domain',
      label: 'iCloud region',
      type: 'select',
      required: true,
      options: [
        { label: 'Outside mainland China', value: 'com' },
        { label: 'Mainland China', value: 'cn' },
      ],
    },
  ],
  challenge_fields: [{ ...CODE_FIELD }],
  scope_fields: [],
};

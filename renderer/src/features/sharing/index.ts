/**
 * The sharing feature's public surface: what other features use (album sharing, the filters, the
 * account page) and what the app fills the shared layer's slots with. Importing it brings sharing's
 * styles (sharing.css), which these parts are drawn with.
 */
import './sharing.css';

export { fieldError, formError } from './field-errors';
export { OwnerChip } from './OwnerChip';
export { PartnerSharingSection } from './PartnerSharingSection';
export { ROLE_HELP, RoleSelect } from './RoleSelect';
export { SelectionLinkButton } from './SelectionLinkButton';
export { SharedBySelect, usePersonName } from './SharedBySelect';
export { SharedWithYouNotice } from './SharedWithYouNotice';
export { SharingDialog } from './SharingDialog';
export { ShareLinkDialog, type LinkTarget } from './ShareLinkDialog';
export { ShareLinksSection } from './ShareLinksSection';
export { sharingKeys, useHouseholdMembers, type AlbumRole } from './sharing-api';

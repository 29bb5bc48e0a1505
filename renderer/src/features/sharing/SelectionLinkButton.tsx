/** "Create link" in the selection bar: a public link to the selected photos (ShareLinkDialog). */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { ShareLinkDialog } from './ShareLinkDialog';

export function SelectionLinkButton({ ids, disabled }: { ids: string[]; disabled?: boolean }) {
  const [open, setOpen] = useState<string[] | null>(null);
  return (
    <>
      <Button variant="secondary" disabled={disabled} onClick={() => setOpen([...ids])}>
        Create link
      </Button>
      {/* The ids are kept as they were when the dialog opened: the link is to those photos. */}
      {open && <ShareLinkDialog target={{ asset_ids: open }} onClose={() => setOpen(null)} />}
    </>
  );
}

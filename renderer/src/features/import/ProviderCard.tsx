/**
 * One import provider the server offers, as a card: what it is, what Hearth stores and does with it (the security
 * note), and "Connect", which opens its form in the card. Every provider is drawn from its descriptor, so another
 * provider on the server is another card here without a change to this page.
 */
import { useId } from 'react';
import { Button } from '../../components/Button';
import { ConnectForm } from './ConnectForm';
import type { CloudCredential, CloudProvider } from './import-api';

interface ProviderCardProps {
  provider: CloudProvider;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  onConnected: (credential: CloudCredential) => void;
}

export function ProviderCard({ provider, open, onOpen, onClose, onConnected }: ProviderCardProps) {
  const titleId = useId();
  return (
    <li className="card provider-card" aria-labelledby={titleId}>
      <h3 className="provider-card__title" id={titleId}>
        {provider.title}
      </h3>
      <p>{provider.description}</p>
      <p className="provider-card__note">
        <strong>What Hearth keeps: </strong>
        {provider.security_note}
      </p>
      {open ? (
        <ConnectForm provider={provider} onConnected={onConnected} onCancel={onClose} />
      ) : (
        <div className="form__actions">
          <Button onClick={onOpen} aria-label={`Connect ${provider.title}`}>
            Connect
          </Button>
        </div>
      )}
    </li>
  );
}

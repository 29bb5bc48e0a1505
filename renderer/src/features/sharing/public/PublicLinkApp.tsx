/**
 * The page a public link opens (`/s/<key>`): no account, no session. It shows the link's title and
 * count, asks the password when the link has one (a lockout after wrong passwords is said in plain
 * words), then the photos in a justified grid; a photo opens in a viewer (swipe on phones, zoom,
 * videos play); the zip and each original can be downloaded when the link allows it. It asks only
 * the link's own operations (public-api.ts) and shows nothing the link does not share.
 */
import { formatDate } from '../../../lib/dates';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, messageOf } from '../../../api/problem';
import { PasswordPrompt } from './PasswordPrompt';
import { PublicGrid } from './PublicGrid';
import { PublicViewer } from './PublicViewer';
import { describeLink, keptTokens, linkUrls, listLinkPhotos } from './public-api';
import { usePhotoInHistory } from './use-photo-in-history';
import '../../../photos/library.css';
import './public.css';

export default function PublicLinkApp({ linkKey }: { linkKey: string }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={client}>
      <PublicLinkPage linkKey={linkKey} />
    </QueryClientProvider>
  );
}

const photosWord = (n: number) => (n === 1 ? '1 photo' : `${n} photos`);

function Frame({ title, children }: { title?: string; children: React.ReactNode }) {
  useEffect(() => {
    document.title = title ? `${title} · Hearth` : 'Hearth';
  }, [title]);
  return (
    <div className="public">
      <main id="main" className="public__main">
        {children}
      </main>
      <footer className="public__footer">Shared with Hearth</footer>
    </div>
  );
}

function PublicLinkPage({ linkKey }: { linkKey: string }) {
  const info = useQuery({ queryKey: ['shared', linkKey], queryFn: ({ signal }) => describeLink(linkKey, signal) });
  const [unlocked, setUnlocked] = useState<string | null>(() => keptTokens.get(linkKey));
  const token = info.data ? (info.data.needs_password ? unlocked : info.data.link_token) : null;
  const photos = useQuery({
    queryKey: ['shared', linkKey, 'photos', token],
    queryFn: ({ signal }) => listLinkPhotos(linkKey, token, signal),
    enabled: info.isSuccess && (!info.data.needs_password || token !== null),
  });
  const [open, setOpen] = usePhotoInHistory();

  // A kept token that no longer opens the link (the password changed, or it ran out): ask again.
  const locked = photos.error instanceof ApiError && photos.error.code === 'link_locked';
  useEffect(() => {
    if (locked) {
      keptTokens.drop(linkKey);
      setUnlocked(null);
    }
  }, [locked, linkKey]);

  if (info.isPending) {
    return (
      <Frame>
        <p role="status">Opening the link…</p>
      </Frame>
    );
  }
  if (info.isError) {
    const gone = info.error instanceof ApiError && info.error.status === 404;
    return (
      <Frame title="Link not available">
        <div className="public__message">
          <h1>{gone ? 'This link does not work' : 'The link could not be opened'}</h1>
          <p>{gone ? 'It may have expired, or the person who shared it withdrew it. Ask them for a new link.' : messageOf(info.error)}</p>
        </div>
      </Frame>
    );
  }

  const link = info.data;
  if (link.needs_password && !token) {
    return (
      <Frame title={link.title}>
        <PasswordPrompt
          linkKey={linkKey}
          title={link.title}
          onUnlocked={(t, expiresAt) => {
            keptTokens.set(linkKey, t, expiresAt);
            setUnlocked(t);
          }}
        />
      </Frame>
    );
  }

  const list = photos.data?.photos ?? [];
  const allowDownload = photos.data?.allow_download ?? link.allow_download;
  const index = open === null ? -1 : list.findIndex((p) => p.photo_id === open);
  return (
    <Frame title={link.title}>
      <header className="public__header">
        <div>
          <h1>{link.title}</h1>
          <p className="public__count">
            {photosWord(photos.data?.count ?? link.asset_count)}
            {link.expires_at ? ` · until ${formatDate(link.expires_at)}` : ''}
          </p>
        </div>
        {allowDownload && list.length > 0 && (
          <a className="button button--primary" href={linkUrls.zip(linkKey, token)} download>
            Download all (zip)
          </a>
        )}
      </header>
      {photos.isPending && <p role="status">Loading photos…</p>}
      {photos.isError && !locked && <p className="field__error">{messageOf(photos.error)}</p>}
      {photos.isSuccess && list.length === 0 && <p className="public__message">There is nothing in this link at the moment.</p>}
      <PublicGrid photos={list} linkKey={linkKey} token={token} onOpen={(photo) => setOpen(photo.photo_id)} />
      {index >= 0 && (
        <PublicViewer
          photo={list[index]!}
          linkKey={linkKey}
          token={token}
          allowDownload={allowDownload}
          onClose={() => setOpen(null)}
          onPrevious={index > 0 ? () => setOpen(list[index - 1]!.photo_id, true) : undefined}
          onNext={index < list.length - 1 ? () => setOpen(list[index + 1]!.photo_id, true) : undefined}
        />
      )}
    </Frame>
  );
}

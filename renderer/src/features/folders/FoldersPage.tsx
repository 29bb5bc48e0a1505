/**
 * Folders: the library as it is on disk. At the top, each repository's folders; inside a folder, its
 * subfolders (with counts and a cover) and the files directly in it. `?repo=&path=` in the URL, so
 * the browser's back button walks back up.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { messageOf, request } from '../../api/problem';
import { PageHeader } from '../../components/PageHeader';
import { AssetCollectionPage } from '../../photos/AssetCollectionPage';
import { Thumbnail } from '../../photos/Thumbnail';
import './folders.css';

const folderUrl = (repo: string, path: string) => `/folders?${new URLSearchParams({ repo, path }).toString()}`;

function Subfolders({ repo, path }: { repo: string | undefined; path: string }) {
  const list = useQuery({
    queryKey: ['library', 'folders', repo ?? '', path],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/folders', { params: { query: { ...(repo ? { repository_id: repo } : {}), path } }, signal })),
  });
  const segments = path ? path.split('/') : [];
  return (
    <>
      {repo && (
        <nav className="crumbs" aria-label="Folder path">
          <Link to="/folders">All folders</Link>
          {segments.map((s, i) => (
            <span key={i}>
              {' / '}
              {i === segments.length - 1 ? <strong>{s}</strong> : <Link to={folderUrl(repo, segments.slice(0, i + 1).join('/'))}>{s}</Link>}
            </span>
          ))}
        </nav>
      )}
      {list.isError && <p className="field__error">{messageOf(list.error)}</p>}
      {(list.data?.folders.length ?? 0) > 0 && (
        <ul className="folder-cards" aria-label="Folders">
          {list.data!.folders.map((f) => (
            <li key={`${f.repository_id}:${f.folder_path}`}>
              <Link className="folder-card" to={folderUrl(f.repository_id, f.folder_path)}>
                <span className="folder-card__cover">
                  {f.cover_asset_id && <Thumbnail assetId={f.cover_asset_id} size="small" alt="" className="folder-card__image" fallback={null} />}
                </span>
                <span className="folder-card__text">
                  <strong>{f.display_name || f.repository_name}</strong>
                  <span>
                    {f.asset_count === 1 ? '1 item' : `${f.asset_count.toLocaleString()} items`} · {new Date(f.date_start).getFullYear()}
                    {new Date(f.date_end).getFullYear() !== new Date(f.date_start).getFullYear() ? `–${new Date(f.date_end).getFullYear()}` : ''}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function FoldersPage() {
  const [params] = useSearchParams();
  const repo = params.get('repo') ?? undefined;
  const path = (params.get('path') ?? '').replace(/^\/+|\/+$/g, '');
  const title = repo ? path.split('/').at(-1) || 'Folder' : 'Folders';
  // At the top level there are no files to list: every file sits in a repository.
  const filter = repo ? { repository_id: repo, folder_path: path, folder_recursive: false } : undefined;
  return repo ? (
    <AssetCollectionPage
      key={`${repo}:${path}`}
      name="folder"
      title={title}
      listLabel={`Files in ${title}`}
      filter={filter}
      sortBy="date_captured"
      groupByDay={false}
      toolbar={<Subfolders repo={repo} path={path} />}
      describe={(n) => (n === 1 ? '1 file directly in this folder.' : `${n.toLocaleString()} files directly in this folder.`)}
      empty={{ icon: 'folders', title: 'No files directly here', text: 'Open a subfolder above.' }}
    />
  ) : (
    <>
      <PageHeader title="Folders">
        <p>The folders of your library, as they are on disk.</p>
      </PageHeader>
      <Subfolders repo={undefined} path="" />
    </>
  );
}

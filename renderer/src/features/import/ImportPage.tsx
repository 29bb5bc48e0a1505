/**
 * Import: bring photos home from another place. Two columns on a wide screen, one on a phone:
 * - the member's connected accounts (state, problems, Reconnect, Disconnect, Remove, "Import from this account"),
 *   then the providers the server offers as cards with their Connect forms (more providers are more cards), then
 *   Google Takeout (parts of an export uploaded or already in a repository, previewed, imported: TakeoutCard), then a
 *   folder on the home machine, asked for here and chosen there (features/host-folders);
 * - what is being imported: the folder and repository choice, then the run, live; and the recent imports.
 *
 *   Connect ──Test connection──▶ (code) ──▶ connected ──▶ choose folder and repository ──Import this folder──▶ run
 *
 * The run shown is in the address (`?run=<id>`), so a reload or a shared tab shows the same one. Without one, a run
 * that is under way is shown.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMe } from '../../api/use-me';
import { HomeFolderCard } from '../host-folders';
import { EmptyState } from '../../components/EmptyState';
import { FormSuccess } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { AccountRow } from './AccountRow';
import { ImportSetup } from './ImportSetup';
import { isActive, useCredentials, useProviders, useRecentRuns, type CloudCredential, type ImportRun } from './import-api';
import { ProviderCard } from './ProviderCard';
import { RecentRuns } from './RecentRuns';
import { RunView } from './RunView';
import { TakeoutCard } from './TakeoutCard';
import './import.css';

const RUN_PARAM = 'run';
/** Sources of runs that are no provider to connect to (archives placed in a repository). */
const SOURCE_TITLES: Record<string, string> = { google_takeout: 'Google Takeout' };

export function ImportPage() {
  const me = useMe();
  const providers = useProviders();
  const credentials = useCredentials();
  const recent = useRecentRuns();
  const [params, setParams] = useSearchParams();
  const [openProvider, setOpenProvider] = useState<string | null>(null);
  const [importFrom, setImportFrom] = useState<string | null>(null);
  const [connected, setConnected] = useState<string | null>(null);
  const [closedRun, setClosedRun] = useState<string | null>(null);

  const providerList = providers.data?.providers.filter((p) => p.status === 'enabled') ?? [];
  const accounts = credentials.data?.credentials ?? [];
  const importing = accounts.find((c) => c.id === importFrom && c.status === 'connected') ?? null;
  const chosenRun = params.get(RUN_PARAM);
  // The run under way is shown unless another one, or the import setup, was chosen, or it was closed.
  const runUnderWay = recent.data?.runs.find((r) => isActive(r.status))?.id ?? null;
  const runId = chosenRun ?? (importing || runUnderWay === closedRun ? null : runUnderWay);

  const showRun = (id: string | null) => {
    if (id === chosenRun) return;
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id) next.set(RUN_PARAM, id);
      else next.delete(RUN_PARAM);
      return next;
    });
  };

  const onConnected = (c: CloudCredential) => {
    setOpenProvider(null);
    setConnected(`${c.display_name} is connected. Choose what to import from it.`);
    if (c.status === 'connected') startSetup(c.id);
  };

  const startSetup = (credentialId: string) => {
    setImportFrom(credentialId);
    showRun(null);
  };

  const sourceName = (run: ImportRun) => {
    const account = accounts.find((c) => c.id === run.credential_id);
    const from = account?.display_name ?? providerList.find((p) => p.id === run.provider)?.title ?? SOURCE_TITLES[run.provider] ?? run.provider;
    const folder = run.remote_scope.folder;
    return folder === undefined ? from : `${from} · ${folder || 'everything'}`;
  };

  const providerCards = () => {
    if (providers.isError) return <LoadError error={providers.error} onRetry={() => void providers.refetch()} />;
    if (!providers.data) return <p aria-busy="true">Loading…</p>;
    if (providerList.length === 0) {
      return (
        <EmptyState icon="download" title="Nothing to import from yet">
          <p>This Hearth server offers no import sources yet. Photos can still be added from this device on the Upload page.</p>
        </EmptyState>
      );
    }
    return (
      <ul className="provider-cards" aria-label="Import sources">
        {providerList.map((p) => (
          <ProviderCard
            key={p.id}
            provider={p}
            open={openProvider === p.id}
            onOpen={() => {
              setConnected(null);
              setOpenProvider(p.id);
            }}
            onClose={() => setOpenProvider(null)}
            onConnected={onConnected}
          />
        ))}
      </ul>
    );
  };

  return (
    <>
      <PageHeader title="Import">
        <p>Bring photos and videos home from a cloud or a NAS. Hearth copies them into your library and changes nothing where they come from.</p>
      </PageHeader>

      <div className="import-page">
        <div className="import-page__column">
          {(credentials.isError || accounts.length > 0) && (
            <section className="card" aria-labelledby="accounts-heading">
              <h2 className="card__title" id="accounts-heading">
                Your accounts
              </h2>
              <FormSuccess message={connected} />
              {credentials.isError ? (
                <LoadError error={credentials.error} onRetry={() => void credentials.refetch()} />
              ) : (
                <ul className="accounts" aria-label="Connected accounts">
                  {accounts.map((c) => (
                    <AccountRow
                      key={c.id}
                      credential={c}
                      provider={providerList.find((p) => p.id === c.provider)}
                      own={c.owner_id === me?.user_id}
                      importing={importFrom === c.id}
                      onImport={() => startSetup(c.id)}
                    />
                  ))}
                </ul>
              )}
            </section>
          )}

          <section className="import-page__connect" aria-labelledby="connect-heading">
            <h2 className="import-page__heading" id="connect-heading">
              {accounts.length > 0 ? 'Connect another account' : 'Connect an account'}
            </h2>
            {providerCards()}
          </section>

          <TakeoutCard
            onStarted={(run) => {
              setImportFrom(null);
              setConnected(null);
              showRun(run.id);
            }}
          />

          <HomeFolderCard />
        </div>

        <div className="import-page__column">
          {importing && !chosenRun && (
            <ImportSetup
              key={importing.id}
              credential={importing}
              provider={providerList.find((p) => p.id === importing.provider)}
              onStarted={(run) => {
                setImportFrom(null);
                setConnected(null);
                showRun(run.id);
              }}
              onShowRun={(id) => {
                setImportFrom(null);
                showRun(id);
              }}
              onCancel={() => setImportFrom(null)}
            />
          )}
          {runId && (
            <RunView
              key={runId}
              runId={runId}
              sourceName={sourceName}
              reveal={chosenRun !== null}
              onClose={() => {
                setClosedRun(runId);
                if (chosenRun) showRun(null);
              }}
            />
          )}
          <RecentRuns
            shownId={runId}
            sourceName={sourceName}
            onShow={(id) => {
              setImportFrom(null);
              showRun(id);
            }}
          />
        </div>
      </div>
    </>
  );
}

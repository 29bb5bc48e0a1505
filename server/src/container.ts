/**
 * Builds every store and service once, in dependency order. No DI framework: this file is the map of
 * what depends on what. Tests build a container on a temporary data folder exactly like main.ts does.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config/env.ts';
import { SettingsStore } from './config/settings.ts';
import { openDatabase, type Db } from './platform/db/connection.ts';
import { WalCheckpointer } from './platform/db/checkpointer.ts';
import { migrate, type MigrateResult } from './platform/db/migrate.ts';
import { Access, forSystem } from './platform/access/index.ts';
import { ChangeBus } from './platform/change-bus/index.ts';
import { giveBackMemory } from './platform/cache/give-back-memory.ts';
import type { AssetChangeBus, AssetChanges } from './features/assets/asset-changes.ts';
import { KeyRing } from './platform/crypto/keys.ts';
import type { Logger } from './platform/logger.ts';
import type { Actor } from './platform/http/context.ts';
import { AuthService } from './features/auth/auth.service.ts';
import { SetupCode } from './features/auth/setup-code.ts';
import { InvitesService } from './features/auth/invites.service.ts';
import { MfaService } from './features/auth/mfa.service.ts';
import { PasskeysService } from './features/auth/passkeys.service.ts';
import { StagedRegistrationService } from './features/auth/staged-registration.service.ts';
import { SessionsService } from './features/auth/sessions.service.ts';
import { UsersService } from './features/users/users.service.ts';
import { SystemService } from './features/system/system.service.ts';
import { LlmConnection } from './features/settings/index.ts';
import { NetworkService } from './features/system/network.service.ts';
import { CAPABILITY_MODELS, ClipEncoder, MlRuntime } from './adapters/ml/index.ts';
import { RepositoriesService } from './features/repositories/repositories.service.ts';
import { buildJobRegistry } from './jobs.ts';
import { CatalogWriter, type Ingest } from './features/assets/index.ts';
import { RepositoriesStore } from './features/repositories/repositories.store.ts';
import { AssetPipeline } from './features/assets/pipeline/pipeline.ts';
import { settleAssetsWithTheirJobs, settleInterruptedAssets } from './features/assets/pipeline/interrupted-assets.ts';
import { followAssetChanges } from './features/uploads/receipt-follower.ts';
import { UploadsStore } from './features/uploads/uploads.store.ts';
import { MediaToolsService } from './features/assets/media-tools/media-tools.service.ts';
import { INSTALL_HINT, mediaToolsReport, resumeWaitingAssets, waitingAssetCount } from './features/assets/pipeline/waiting-for-tools.ts';
import { DerivativePaths } from './features/assets/derivatives.ts';
import { AssetsService } from './features/assets/api/assets.service.ts';
import { CorrectionsService } from './features/assets/corrections/corrections.service.ts';
import { AssetsStore } from './features/assets/assets.store.ts';
import { TrashService } from './features/assets/trash/trash.service.ts';
import { TrashStore } from './features/assets/trash/trash.store.ts';
import { PermanentDeletion } from './features/assets/trash/permanent-deletion.ts';
import { purgeExpiredTrash } from './features/assets/trash/trash.jobs.ts';
import { AssetErrorRedactor, AssetNames, nameAssets } from './features/assets/asset-references.ts';
import { Intake, IntakeCommits, IntakeDoor } from './features/intake/index.ts';
import { UploadsService } from './features/uploads/uploads.service.ts';
import { uploadLimitsFromEnv } from './features/uploads/uploads.config.ts';
import { cleanStaging } from './features/uploads/uploads.jobs.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import { IndexingService } from './features/indexing/indexing.service.ts';
import { IndexerRegistry } from './features/indexing/indexers.ts';
import { OcrStore, createOcrIndexer } from './features/ocr/index.ts';
import { FacesStore, PeopleService, carryFacesOnMerge, createFaceIndexer, peopleOfItems } from './features/faces/index.ts';
import { SemanticStore, VectorIndexes, createSemanticIndexers } from './features/semantic/index.ts';
import { AlbumsService } from './features/albums/albums.service.ts';
import { AlbumMembersService } from './features/albums/members.service.ts';
import { AlbumsStore } from './features/albums/albums.store.ts';
import { followSourceAlbums } from './features/albums/source-albums.ts';
import { PartnerSharesService } from './features/sharing/partners.service.ts';
import { ShareLinksService } from './features/sharing/links.service.ts';
import { TagsService } from './features/tags/tags.service.ts';
import { StacksService } from './features/stacks/stacks.service.ts';
import { DuplicatesService, PhashBackfill, backfillPhashesJob } from './features/duplicates/index.ts';
import { PhotoEventsService } from './features/photo-events/photo-events.service.ts';
import { FeaturedService } from './features/featured/featured.service.ts';
import { JobsService } from './features/jobs/jobs.service.ts';
import { IndexingPause } from './features/jobs/indexing-pause.ts';
import { JobRunner } from './platform/jobs/runner.ts';
import { CacheRegistry } from './platform/cache/kept-cache.ts';
import { CatalogTracker } from './features/browse/catalog-tracker.ts';
import { SnapshotWorker } from './platform/cache/snapshot-worker.ts';
import { BrowseService } from './features/browse/browse.service.ts';
import { LIST_CACHE_BYTES, listBytes } from './features/browse/browse.lists.ts';
import { MAP_CACHE_BYTES, MapIndex, type Points } from './features/places/map-index.ts';
import { PlacesService } from './features/places/places.service.ts';
import { PlaceNames } from './features/places/place-names.ts';
import { LocationClustersService } from './features/places/location-clusters.service.ts';
import { syncPlaces } from './features/places/places.jobs.ts';
import { reverseGeocoder } from './features/places/geocoder/reverse-geocoder.ts';
import { setGazetteerCacheFallback } from './features/places/geocoder/gazetteer-cache.ts';
import { placeNameAt } from './features/places/place-name-at.ts';
import { FACTS_CACHE_BYTES, OwnerFacts, type Facts } from './features/statistics/owner-facts.ts';
import { CatalogMemo, MEMO_CACHE_BYTES, memoBytes } from './features/statistics/memo.ts';
import { StatisticsService } from './features/statistics/statistics.service.ts';
import { FOLDER_CACHE_BYTES, FolderTotals, foldersBytes } from './features/folders/folder-totals.ts';
import { FoldersService } from './features/folders/folders.service.ts';
import { ExactVectorScan, SearchService } from './features/search/index.ts';
import { INaturalistClient, SpeciesService, SpeciesStore } from './features/species/index.ts';
import { CloudImportService } from './features/cloud-import/index.ts';
import type { CloudProvider } from './adapters/cloud/provider.ts';
import { WebDavProvider } from './adapters/cloud/webdav/index.ts';
import { ICloudProvider } from './adapters/cloud/icloud/index.ts';
import { AgentEngine, AgentService, AgentStore, DeterministicPlanner, LibraryStore, ModelPlanner, type AgentLibrary } from './features/agent/index.ts';
import { knownPlaces } from './features/search/index.ts';
import { MarksStore } from './features/assets/index.ts';
import { HostActionEvents, HostActionLifecycle, HostActionsService, HostActionsStore, HostApproval, HostChannelServer, defaultRiskOptions } from './features/host-actions/index.ts';

declare module './platform/http/context.ts' {
  // The platform's view of the services is this Container: routers and jobs each get only the members they
  // declare (routerUsing's `services(c)`, jobs' `ctx.deps`).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AppServices extends Container {}
}

export interface Container {
  config: AppConfig;
  log: Logger;
  db: Db;
  /** Checkpoints the catalog's WAL on a thread of its own; null for a catalog in memory. */
  checkpointer: WalCheckpointer | null;
  migrations: MigrateResult;
  settings: SettingsStore;
  setupCode: SetupCode;
  auth: AuthService;
  /** The second factor: TOTP, recovery codes, the sign-in's second step and step-up proofs. */
  mfa: MfaService;
  /** Passkeys (WebAuthn): enrolment, sign-in, step-up proofs. */
  passkeys: PasskeysService;
  /** Accounts made only with their second factor (registration.require_second_factor). */
  stagedRegistration: StagedRegistrationService;
  /** Signed-in devices: a member's (or, for an administrator, any member's) live sessions, signed out one or all. */
  sessions: SessionsService;
  /** Single-use invite links that open the sign-up page with their code filled in. */
  invites: InvitesService;
  users: UsersService;
  system: SystemService;
  /** The administrator's model settings as a client for the assistant, and their "Test connection". */
  llm: LlmConnection;
  /** The ML runtime: model registry, installed and verified models, the inference threads. */
  ml: MlRuntime;
  /**
   * Semantic search's parts: the CLIP vectors (`store`, the source of truth; its `onChange` is what an in-memory
   * index follows) and the one CLIP encoder (`encoder.embedTexts` for queries). `enable()` checks the CLIP
   * models again and registers the semantic indexers when they are there (true when they are): done at start,
   * and again by whoever installs the models while the server runs.
   */
  semantic: { store: SemanticStore; encoder: ClipEncoder; enable(): Promise<boolean> };
  /** Where the listener listens (the network setting) and the addresses phones should open. */
  network: NetworkService;
  repositories: RepositoriesService;
  /** Cloud import: members' connections to providers (WebDAV, iCloud), import runs and the sources bound to repositories. */
  cloudImport: CloudImportService;
  /** Members' requests that the home machine add a folder as a repository (features/host-actions). */
  hostActions: HostActionsService;
  /** The assistant: chat with tools over the library, refs, confirmations and pins (features/agent). */
  agent: AgentService;
  /**
   * The local-only listener through which the person at the home machine approves host actions (a socket in
   * `<dataDir>/host/`, never the network). Started with the container; `listening` settles once it listens
   * (or failed: logged, the server runs on without approvals).
   */
  hostChannel: { server: HostChannelServer; listening: Promise<void> };
  /** Staging, hashing, content detection and the no-overwrite commit, shared by uploads, scans and the watcher. */
  intake: Intake;
  /** The one door into the catalog: every source (uploads, watching, scans, next the importers) calls it. */
  door: IntakeDoor;
  /** @deprecated The door's older face (`indexFile`), for tests and benches. */
  ingest: Ingest;
  /** The per-asset media pipeline run by the `assets.process-asset` job. */
  pipeline: AssetPipeline;
  derivatives: DerivativePaths;
  assets: AssetsService;
  corrections: CorrectionsService;
  /** The Trash beyond soft delete: deleting for good (files included), emptying, the retention period. */
  trash: TrashService;
  /** Single, batch and chunked uploads into repositories, with receipts. */
  uploads: UploadsService;
  /** ML index rebuilds and stats; ML features register their indexers in `indexing.indexers`. */
  indexing: IndexingService;
  /** Faces found in photos and the people they are grouped into. */
  faces: FacesStore;
  /** People (face clusters) and the corrections members make to them. */
  people: PeopleService;
  albums: AlbumsService;
  /** Shared albums: their members and roles. */
  albumMembers: AlbumMembersService;
  /** Members sharing their libraries with each other. */
  partnerShares: PartnerSharesService;
  /** Public links to an album or a selection, and what visitors see through them. */
  shareLinks: ShareLinksService;
  tags: TagsService;
  stacks: StacksService;
  /** Duplicate groups: detection per repository (after ingest and on demand), merge and dismiss. */
  duplicates: DuplicatesService;
  /**
   * Photo events (features/photo-events). Titles take their place names from the offline reverse geocoder
   * (features/places, option `placeNames`); relations take people from faces (option `people`, face-links.ts).
   */
  photoEvents: PhotoEventsService;
  /** Every cache of the server (their counters go to the runtime diagnostics). */
  caches: CacheRegistry;
  /** The catalog shape and its changes, from the change journal: what every cache below follows. */
  catalog: CatalogTracker;
  /** The unified list (queryAssets, liked, rated), with the list cache. */
  browse: BrowseService;
  /** Every geotagged file per owner, kept (map points). */
  mapIndex: MapIndex;
  places: PlacesService;
  /** Geohashes and place names of geotagged assets (the offline geocoder), kept by the `places.name-places` job. */
  placeNames: PlaceNames;
  /** Location clusters per owner (listLocationClusters, rebuildLocationClusters). */
  locationClusters: LocationClustersService;
  /** What the statistics count per owner, kept. */
  ownerFacts: OwnerFacts;
  statistics: StatisticsService;
  /** Per-folder counts per owner and repository, kept. */
  folderTotals: FolderTotals;
  folders: FoldersService;
  /** Hybrid search, search by image, the classifier preview (features/search). */
  search: SearchService;
  jobs: JobQueue;
  /** The jobs API (queues, listing, cancel, retry) as administrators see it. */
  jobReports: JobsService;
  /** ffmpeg/ffprobe and the files waiting for them (features/assets/media-tools). */
  mediaTools: MediaToolsService;
  featured: FeaturedService;
  /** Species reference cards from iNaturalist (HEARTH_SPECIES_BASE_URL), kept in the catalog. */
  species: SpeciesService;
  /** Decides who may read or change which catalog rows (platform/access); services ask it, nobody else. */
  access: Access;
  /** The asset change bus (features/assets/asset-changes.ts); subscriptions are made below, in one place. */
  assetChanges: AssetChangeBus;
  jobRunner: JobRunner;
  /** "Pause indexing" on the home machine (features/jobs/indexing-pause.ts), through the host channel. */
  indexingPause: IndexingPause;
  /** Makes job errors speak of assets by id (administrators read them, not the files' owners). */
  jobErrors: AssetErrorRedactor;
  /** Stops the job workers (waiting up to `deadlineMs` for running jobs) and closes the catalog. */
  close(deadlineMs?: number): Promise<void>;
}

export function dataPaths(dataDir: string) {
  return {
    catalog: path.join(dataDir, 'catalog.sqlite3'),
    backups: path.join(dataDir, 'backups'),
    secretKey: path.join(dataDir, 'secret.key'),
    setupCode: path.join(dataDir, 'setup-code.txt'),
    storage: path.join(dataDir, 'storage'),
    derivatives: path.join(dataDir, 'derivatives'),
    /**
     * Hearth's temporary files (encoded exports waiting for their download). Inside the data folder, never
     * the system's temp folder: that one is shared by every user and install of the machine, may be a small
     * RAM disk, and is outside what the administrator gave Hearth. Emptied at every start (nothing in it
     * outlives the request that made it).
     */
    tmp: path.join(dataDir, 'tmp'),
  };
}

/** The iCloud provider's service addresses and client id when a test points them at a replay (config/env.ts). */
function iCloudTestOptions(config: AppConfig): ConstructorParameters<typeof ICloudProvider>[0] {
  const t = config.testICloudEndpoints;
  if (!t) return {};
  const { clientId, ...endpoints } = t;
  return { endpoints, ...(clientId ? { clientId: () => clientId } : {}) };
}

/** The member an import run acts for, as the assets and tags features take a caller (only `userId` is checked). */
function importActor(userId: number): Actor {
  return { userId, username: '', role: 'user', sessionId: 'import', via: 'bearer' };
}

export function createContainer(config: AppConfig, log: Logger): Container {
  const p = dataPaths(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.mkdirSync(p.storage, { recursive: true });
  fs.rmSync(p.tmp, { recursive: true, force: true });
  fs.mkdirSync(p.tmp, { recursive: true });
  // Where node_modules cannot be written (a read-only install), the places' compact gazetteer is kept here.
  setGazetteerCacheFallback(path.join(config.dataDir, 'cache'));

  const db = openDatabase(p.catalog);
  let closed = false;
  const migrations = migrate(db, { backupDir: p.backups });
  if (migrations.applied.length) log.info({ applied: migrations.applied, backup: migrations.backupFile }, 'catalog migrated');
  // WAL checkpoints on a thread of their own instead of inside the commits of the event loop (platform/db/checkpointer.ts).
  const checkpointer = WalCheckpointer.start(db, {
    onFailure: (e) => log.warn({ err: e }, 'the WAL checkpointer stopped: commits checkpoint the catalog themselves again'),
  });

  const jobRegistry = buildJobRegistry();
  jobRegistry.assertHandlersFor(db);
  const jobs = new JobQueue(db, jobRegistry);
  // Each job's handler is given the services its job declares (`uses`), picked from the container when it runs.
  let container!: Container;
  const jobErrors = new AssetErrorRedactor(db);
  const jobRunner = new JobRunner({
    db,
    queue: jobs,
    log: log.child({ module: 'jobs' }),
    deps: () => container,
    describeFailure: (job, text) => jobErrors.redactJobError(job.args, text),
    onQuiet: giveBackMemory, // what any work left behind, 15 s after the last job (with the models off too)
  });

  // Who may read or change which rows: the only place ownership is decided (platform/access).
  const access = new Access(db);
  // What happens to assets (ingested, ready, trashed, restored, moved), for the features that react.
  const assetChanges: AssetChangeBus = new ChangeBus<AssetChanges>(db);
  const keys = KeyRing.fromFile(p.secretKey);
  const settings = new SettingsStore(db, keys.key('settings'), { hostFixed: config.hostFixed, mlDefaultOn: config.mlDefaultOn });
  const network = new NetworkService(settings, config, log.child({ module: 'network' }));
  const setupCode = new SetupCode(p.setupCode);
  const invites = new InvitesService(db, (origin) => network.linkOrigins(origin), log.child({ module: 'invites' }));
  const auth = new AuthService(db, access, keys, settings, setupCode, invites, log.child({ module: 'auth' }));
  const mfa = new MfaService(db, auth, keys, log.child({ module: 'mfa' }));
  const passkeys = new PasskeysService(db, auth, mfa, mfa.limiter, log.child({ module: 'passkeys' }));
  mfa.usePasskeys(passkeys);
  const stagedRegistration = new StagedRegistrationService(db, auth, mfa, passkeys, keys, log.child({ module: 'registration' }));
  const sessions = new SessionsService(db, log.child({ module: 'sessions' }));
  const users = new UsersService(db, access, log.child({ module: 'users' }));
  // The one door into the catalog, built before its sources (repositories, uploads): the catalog writer claims the
  // intake's commit records in its transaction; the door looks repositories up in their store.
  const intake = new Intake();
  const intakeCommits = new IntakeCommits(db, Date.now);
  const repositoryRows = new RepositoriesStore(db);
  const catalogWriter = new CatalogWriter(db, repositoryRows, jobs, assetChanges, log.child({ module: 'ingest' }), intakeCommits);
  const door = new IntakeDoor(catalogWriter, intakeCommits, intake, repositoryRows, log.child({ module: 'intake' }));
  const ingest = door.asIngest();
  // Watches and scans repositories into the catalog through the door.
  const repositories = new RepositoriesService(db, p.storage, log.child({ module: 'repositories' }), {
    jobs,
    settings,
    door,
    dataDir: config.dataDir,
  });
  // Indexers are registered below once their models are verified; until then (or without models) jobs wait.
  const indexers = new IndexerRegistry();
  const indexing = new IndexingService(db, jobs, settings, repositories, indexers);
  // The models (registry, verified files in the models folder) and the threads that run them.
  const ml = new MlRuntime({
    modelsDir: config.modelsDir,
    shippedModelsDir: config.shippedModelsDir,
    dataDir: config.dataDir,
    maxWorkers: config.mlWorkers,
    idleMs: config.mlIdleMs,
    backgroundNice: config.mlNice,
    onIdle: giveBackMemory,
    clipStandin: config.clipStandin,
    modelsBaseUrl: config.modelsBaseUrl,
  });
  const llm = new LlmConnection(settings);
  const system = new SystemService(db, settings, ml, () => ({ journal: catalog.counters(), caches: caches.snapshot() }), () => mediaToolsReport(db), () => llm.availability());

  const derivatives = new DerivativePaths(p.derivatives);
  // OCR indexes photos when its three models are installed and verified (checked off the start's path:
  // index jobs taken meanwhile wait for it, IndexerRegistry.registering); jobs that waited for it run now.
  const registerOcr = () =>
    indexers.registering(
      createOcrIndexer(ml, new OcrStore(db), (assetId) => derivatives.thumbnail(assetId, 'medium'), indexers.pixels).then(
        (ocr) => {
          if (!ocr || closed || indexers.available('ocr')) return;
          indexers.register('ocr', ocr);
          indexing.wakeWaiting('ocr');
          log.info({ model_id: ocr.modelId }, 'OCR indexing is on');
        },
        (e: unknown) => log.warn({ err: e }, 'the OCR models could not be checked: OCR indexing is off'),
      ),
    );
  registerOcr();
  // Faces (YuNet + MobileFaceNet, shipped in models/), registered as OCR is.
  // Faces an incremental pass could not cluster in one write wait for a rebuild of their owner's people.
  const faces = new FacesStore(db, { onDeferred: (ownerId) => people.queueRebuild(ownerId) });
  const registerFaces = () =>
    indexers.registering(
      createFaceIndexer(ml, faces, (assetId) => derivatives.thumbnail(assetId, 'medium'), indexers.pixels).then(
        (indexer) => {
          if (!indexer || closed || indexers.available('face')) return;
          indexers.register('face', indexer);
          indexing.wakeWaiting('face');
          log.info({ model_id: indexer.modelId }, 'face indexing is on');
        },
        (e: unknown) => log.warn({ err: e }, 'the face models could not be checked: face indexing is off'),
      ),
    );
  registerFaces();
  // Semantic vectors (photos and video frames) and zero-shot tags when CLIP is installed and verified, registered
  // as OCR is; `reset()` (rebuild with reset_semantic) wipes the vectors and the zeroshot tags.
  const semanticStore = new SemanticStore(db);
  const clip = new ClipEncoder(ml);
  const enableSemantic = async (): Promise<boolean> => {
    const built = await createSemanticIndexers(ml, clip, semanticStore, {
      db,
      settings,
      mediumThumbnail: (assetId) => derivatives.thumbnail(assetId, 'medium'),
      webVideo: (assetId) => derivatives.webVideo(assetId),
    });
    if (!built || closed || indexers.available('semantic')) return false;
    indexers.register('semantic', built.photo).register('video_semantic', built.video);
    indexing.wakeWaiting('semantic');
    indexing.wakeWaiting('video_semantic');
    log.info({ model_id: built.photo.modelId, zero_shot: built.classifies }, 'semantic indexing is on');
    return true;
  };
  indexers.registering(enableSemantic().catch((e: unknown) => log.warn({ err: e }, 'the CLIP models could not be checked: semantic indexing is off')));
  // A model installed by an administrator (the Models page) is used without a restart: OCR's, and CLIP's towers.
  ml.onModelsInstalled((ids) => {
    if (!indexers.available('ocr') && ids.some((id) => (CAPABILITY_MODELS.ocr as readonly string[]).includes(id))) registerOcr();
    if (!indexers.available('face') && ids.some((id) => (CAPABILITY_MODELS.face_recognition as readonly string[]).includes(id))) registerFaces();
    const clipIds: readonly string[] = Object.values(clip.models);
    if (!indexers.available('semantic') && ids.some((id) => clipIds.includes(id))) {
      indexers.registering(enableSemantic().catch((e: unknown) => log.warn({ err: e }, 'the CLIP models could not be checked: semantic indexing is off')));
    }
  });
  const pipeline = new AssetPipeline(db, repositories, derivatives, assetChanges, log.child({ module: 'pipeline' }));
  const assets = new AssetsService(db, access, repositories, derivatives, jobs, assetChanges, path.join(p.tmp, 'exports'));
  const corrections = new CorrectionsService(db, access, assetChanges);
  // The assets table's store, for the features that keep columns of it (geohashes, pHashes) and the Trash.
  const assetsStore = new AssetsStore(db);
  // A cover is cut from the photo's medium thumbnail (made if missing), the same picture whoever asked first.
  const people = new PeopleService(db, access, faces, jobs, (assetId) => assets.faceCropSource(forSystem('asset', assetId)));
  const trashStore = new TrashStore(db);
  const trashLog = log.child({ module: 'trash' });
  const deletion = new PermanentDeletion(db, trashStore, repositories, derivatives, assetChanges, trashLog);
  const trash = new TrashService(assetsStore, trashStore, access, settings, deletion, trashLog);
  const albums = new AlbumsService(db, access, jobs, settings, indexers, repositories);
  const albumMembers = new AlbumMembersService(db, access);
  const partnerShares = new PartnerSharesService(db, access);
  const shareLinks = new ShareLinksService(db, access, assets, keys.key('share-link'));
  const tags = new TagsService(db, access);
  const stacks = new StacksService(db, access, jobs, repositories);
  const duplicates = new DuplicatesService(db, access, jobs, assetChanges, {
    repositories,
    phashes: new PhashBackfill(db, assetsStore, (assetId) => derivatives.thumbnail(assetId, 'small')),
    // Merging exact copies keeps who is in the photo (features/faces/face-links.ts).
    faces: { reparentFaces: (keeper, copies) => carryFacesOnMerge(db, keeper, copies) },
  });
  const photoEvents = new PhotoEventsService(db, access, jobs, {
    people: (ownerId, items) => peopleOfItems(db, ownerId, items),
    placeNames: {
      at: (lat, lon) => placeNameAt(reverseGeocoder, lat, lon),
      ready: () => (reverseGeocoder.isLoaded ? null : reverseGeocoder.loadAsync()),
    },
  });
  const featured = new FeaturedService(db, repositories);
  const species = new SpeciesService(new SpeciesStore(db), new INaturalistClient(config.species), log.child({ module: 'species' }));
  const assetNames = new AssetNames(db, access);
  const jobReports = new JobsService(
    jobs,
    (args, text) => jobErrors.redactJobError(args, text),
    { readable: (reader, ids) => assetNames.readable(reader, ids), idsOf: (args) => AssetNames.of(args), name: nameAssets },
    (queue) => jobRunner.heldBack(queue),
  );
  const mediaTools = new MediaToolsService(db, jobs);

  // Who reacts to what happens to assets. Emitters (ingest, pipeline, the asset API) know none of them;
  // each subscriber's follow-up is a job queued in the transaction of the change (platform/change-bus).
  assetChanges.on('asset.ready', 'stacks', (e) => stacks.afterAssetReady(e));
  assetChanges.on('asset.ready', 'indexing', (e) => indexing.afterAssetReady(e));
  assetChanges.on('asset.ready', 'duplicates', (e) => duplicates.afterAssetReady(e));
  // Photo events: a debounced rebuild of the owner's events (the catalog's triggers mark what changed).
  for (const kind of ['asset.ready', 'asset.trashed', 'asset.restored', 'asset.deleted', 'asset.corrected'] as const) {
    assetChanges.on(kind, 'photo-events', (e) => photoEvents.afterAssetChange(e.owner_id));
  }
  // A source's new facts moved the time or place of an asset it had already (a re-run whose item changed).
  assetChanges.on('asset.sourced', 'photo-events', (e) => {
    if (e.settled.length) photoEvents.afterAssetChange(e.owner_id);
  });
  // The album names a source gives put the asset into its owner's albums of those names (albums/source-albums.ts).
  followSourceAlbums(assetChanges, new AlbumsStore(db));

  // The library's read side: one tracker of the change journal, one cache each, one service each.
  const caches = new CacheRegistry();
  const catalog = new CatalogTracker(db);
  // Lists not kept yet are read on a worker thread, in one snapshot of its own connection (never on the event loop).
  const listReader = SnapshotWorker.for(db);
  const browse = new BrowseService(db, catalog, caches.create('lists', LIST_CACHE_BYTES, listBytes), listReader);
  const mapIndex = new MapIndex(db, catalog, caches.create('map_points', MAP_CACHE_BYTES, (p: Points) => p.bytes()));
  const places = new PlacesService(db, mapIndex, repositories);
  const placeNames = new PlaceNames(db, reverseGeocoder, assetsStore);
  const locationClusters = new LocationClustersService(db, jobs, placeNames, repositories);
  // A new position gets its place name from a job (the gazetteer loads there, not in the pipeline's transaction).
  assetChanges.on('asset.ready', 'places', (e) => {
    if (placeNames.pendingFor(e.asset_id)) jobs.enqueue(syncPlaces, {});
  });
  // A place a person set is named the same way.
  assetChanges.on('asset.corrected', 'places', (e) => {
    if (e.what === 'place' && placeNames.pendingFor(e.asset_id)) jobs.enqueue(syncPlaces, {});
  });
  // …and a place a source's new facts gave.
  assetChanges.on('asset.sourced', 'places', (e) => {
    if (e.settled.includes('place') && placeNames.pendingFor(e.asset_id)) jobs.enqueue(syncPlaces, {});
  });
  const ownerFacts = new OwnerFacts(db, catalog, caches.create('statistics_facts', FACTS_CACHE_BYTES, (f: Facts) => f.bytes()));
  const memo = new CatalogMemo(db, catalog, caches.create('memo', MEMO_CACHE_BYTES, memoBytes));
  const statistics = new StatisticsService(db, ownerFacts, memo, repositories);
  const folderTotals = new FolderTotals(db, catalog, caches.create('folder_totals', FOLDER_CACHE_BYTES, foldersBytes));
  const folders = new FoldersService(db, folderTotals, repositories);
  // The parser knows the caller's cameras and lenses by the names getFilterOptions lists.
  // The semantic channel reads the in-memory vector index of the model it searches (built in the background at
  // start from semantic_vectors, following the store since); until it is built, the exact scan answers.
  const vectorIndexes = new VectorIndexes(db, semanticStore, log.child({ module: 'vector-index' }));
  void vectorIndexes.warm(clip.modelVersion);
  const search = new SearchService({
    db,
    access,
    browse,
    settings,
    ml,
    catalogNames: async (actor) => ({ ...(await statistics.filterOptions(actor)), people: faces.namedPeople(actor.userId) }),
    vectors: (modelId) => vectorIndexes.lookup(modelId, () => new ExactVectorScan(db, modelId)),
  });

  const uploads = new UploadsService({
    db,
    access,
    log: log.child({ module: 'uploads' }),
    jobs,
    door,
    commits: intakeCommits,
    intake,
    primaryRepositoryId: () => repositories.primary()?.repository_id,
    limits: uploadLimitsFromEnv(),
  });

  // The import providers members can connect to (adapters/cloud).
  const cloudProviders: CloudProvider[] = [new WebDavProvider(), new ICloudProvider(iCloudTestOptions(config))];
  const cloudImport = new CloudImportService({
    db,
    repositories,
    access,
    jobs,
    door,
    intake,
    providers: cloudProviders,
    sealKey: keys.key('cloud-credential'),
    log: log.child({ module: 'cloud-import' }),
    // The source's trash and people, applied as the member would (their own asset; access checks as for them).
    followUps: {
      trash: (ownerId, assetId) => void container.assets.delete(importActor(ownerId), assetId),
      tag: (ownerId, assetId, names) => {
        for (const name of names) container.tags.add(importActor(ownerId), assetId, name);
      },
    },
  });

  // Host actions: the members' requests, and the home machine's side reached only through the host channel.
  const hostLifecycle = new HostActionLifecycle(new HostActionsStore(db), new HostActionEvents(), Date.now);
  const hostLog = log.child({ module: 'host-actions' });
  const hostApproval = new HostApproval({ lifecycle: hostLifecycle, repositories, dataDir: config.dataDir, risks: defaultRiskOptions(), log: hostLog });
  const hostActions = new HostActionsService(access, hostLifecycle, hostApproval);
  const indexingPause = new IndexingPause(jobRunner, settings);
  const hostChannelServer = new HostChannelServer({ dataDir: config.dataDir, approval: hostApproval, events: hostLifecycle.events, indexing: indexingPause, log: hostLog });

  // The assistant's tools reach the library through these, each service checking access as for its own routes.
  const agentLibrary: AgentLibrary = {
    rows: async (actor, filter, timeZone) => (await browse.searchable(actor, filter, timeZone, 'date_captured')).listed,
    galleryItems: (actor, rowids) => browse.galleryItems(actor, rowids, false),
    filesOf: (rowids) => browse.filesOf(rowids),
    search: (actor, req) => search.search(actor, req),
    catalog: async (actor) => ({ ...(await statistics.filterOptions(actor)), people: faces.namedPeople(actor.userId), places: knownPlaces(db, actor.userId) }),
    people: (actor) => people.list(actor, { limit: 1000 }).people.map((p) => ({ person_id: p.person_id, name: p.name, asset_count: p.asset_count })),
    albums: (actor) => albums.list(actor, { limit: 1000, offset: 0 }).albums.map((a) => ({ album_id: a.album_id, album_name: a.album_name, asset_count: a.asset_count, owner_id: a.user_id })),
    events: (actor) => photoEvents.list(actor, { limit: 200 }).events.map((e) => ({ event_id: e.event_id, title: e.title, start_at: e.start_at, end_at: e.end_at, media_count: e.media_count })),
    createAlbum: (actor, name) => albums.create(actor, { album_name: name }),
    albumName: (actor, albumId) => albums.get(actor, albumId).album_name,
    addToAlbum: (actor, albumId, assetId) => void albums.addAsset(actor, albumId, assetId),
    tag: (actor, assetId, name) => void tags.add(actor, assetId, name),
    like: (actor, assetId, liked) => void assets.updateLike(actor, assetId, liked),
    trash: (actor, assetId) => void assets.delete(actor, assetId),
  };
  const agentStore = new AgentStore(db);
  const libraryStore = new LibraryStore(db);
  const marks = new MarksStore(db);
  agentStore.failInterruptedRuns(Date.now());
  const agentEngine = new AgentEngine({ db, store: agentStore, access, lib: agentLibrary, library: libraryStore, marks, planner: () => {
      // A model when an administrator configured one (read for each run: a settings change applies to the next), else the planner of its own.
      const model = llm.client();
      return model ? new ModelPlanner(model) : new DeterministicPlanner();
    },
    log: log.child({ module: 'agent' }) });
  const agent = new AgentService({ store: agentStore, access, settings, engine: agentEngine, lib: agentLibrary, library: libraryStore, marks, assets: assetsStore });

  // Upload receipts follow their asset's changes, in the transaction of each change (uploads/receipt-follower.ts):
  // only uploads writes receipts; the assets feature never calls uploads.
  followAssetChanges(assetChanges, uploads, new UploadsStore(db));

  repositories.ensurePrimary();
  setupCode.ensure(auth.users.count() > 0);
  auth.store.prune(Date.now());
  mfa.store.prune(Date.now());
  passkeys.store.prune(Date.now());
  stagedRegistration.store.prune(Date.now());

  // A processing job given up or run again by any route settles its asset in the same transaction.
  settleAssetsWithTheirJobs(db, jobs, assetChanges);
  // Import runs a stop left running are interrupted (resumable), before their jobs are put back and find them so.
  cloudImport.runs.settleInterrupted();
  // Jobs left running by a crash go back to the queue before the workers start.
  const recovered = jobRunner.recoverOnStart();
  if (recovered.requeued || recovered.discarded) log.warn(recovered, 'jobs interrupted by the last stop were recovered');
  // …and every asset is then ready, failed or queued: none stays `processing` for a job that is gone.
  const assetsSettled = settleInterruptedAssets(db, jobs, assetChanges, Date.now());
  if (assetsSettled.failed || assetsSettled.requeued || assetsSettled.queued) log.warn(assetsSettled, 'assets interrupted by the last stop were settled');
  // Files that waited for ffprobe/ffmpeg go again once the tools are installed (waiting-for-tools.ts).
  const resumed = resumeWaitingAssets(db, jobs);
  if (resumed) log.info({ resumed }, 'files that waited for ffmpeg/ffprobe are queued again');
  else if (waitingAssetCount(db)) log.warn({ waiting: waitingAssetCount(db), hint: INSTALL_HINT }, 'files wait for ffmpeg/ffprobe, which are not installed');

  container = {
    config,
    log,
    db,
    migrations,
    settings,
    setupCode,
    auth,
    mfa,
    passkeys,
    stagedRegistration,
    sessions,
    invites,
    users,
    system,
    llm,
    ml,
    semantic: { store: semanticStore, encoder: clip, enable: enableSemantic },
    network,
    repositories,
    cloudImport,
    hostActions,
    agent,
    hostChannel: { server: hostChannelServer, listening: Promise.resolve() },
    intake,
    door,
    ingest,
    pipeline,
    derivatives,
    assets,
    corrections,
    trash,
    uploads,
    indexing,
    faces,
    people,
    albums,
    albumMembers,
    partnerShares,
    shareLinks,
    tags,
    stacks,
    duplicates,
    photoEvents,
    caches,
    catalog,
    browse,
    mapIndex,
    places,
    placeNames,
    locationClusters,
    ownerFacts,
    statistics,
    folderTotals,
    folders,
    search,
    jobs,
    jobReports,
    mediaTools,
    featured,
    species,
    access,
    assetChanges,
    jobRunner,
    indexingPause,
    jobErrors,
    checkpointer,
    close: async (deadlineMs = 0) => {
      closed = true;
      hostActions.stop();
      await container.hostChannel.listening;
      await hostChannelServer.close();
      // The start's model check may still be reading the models folder (and writing its digests to the data folder).
      await indexers.settled();
      await uploads.stop();
      trash.stop();
      photoEvents.stop();
      await repositories.stop();
      await jobRunner.stop(deadlineMs);
      // After the jobs (their inference finishes or is cut with them): refuses new work, drains, stops the threads.
      await ml.close(deadlineMs);
      await intake.close();
      vectorIndexes.close();
      listReader?.close();
      catalog.close();
      await checkpointer?.close();
      db.close();
    },
  };
  // A pause of indexing made before the restart holds (it is lifted only by a resume).
  if (indexingPause.restore().paused) log.info('indexing is paused (resume it from the home machine)');
  jobRunner.start();
  uploads.startMaintenance(() => jobs.enqueue(cleanStaging, {}));
  // The Trash's retention period: expired items are deleted by a job queued hourly.
  trash.startRetention(() => jobs.enqueue(purgeExpiredTrash, {}));
  // Positions from before migration 0023 (or written without geohashes) get their places in the background.
  if (placeNames.pending()) jobs.enqueue(syncPlaces, {});
  if (duplicates.phashes.pending()) jobs.enqueue(backfillPhashesJob, {});
  // Uploads a crash left committed but not catalogued go to their uploaders (scans would do the same).
  void uploads.catalogueCommittedUploads();
  // The same for files other sources (importers) committed: they go to their committers.
  void door.recoverCommitted();
  // Staging that finished import runs left behind (a stop between their end and their clean-up).
  void cloudImport.runs.tidyStaging();
  // Takeout uploads idle for a day (a browser closed for good), with their partial files.
  void cloudImport.takeoutUploads.sweep();
  // Reachability checks, folder watchers, startup scans and the periodic scan scheduler.
  repositories.start();
  // Host actions a stop left half-way are settled; they expire on time even when nobody reads them; the home
  // machine's channel opens.
  hostApproval.recoverInterrupted();
  hostActions.sweep();
  hostActions.startSweeper();
  container.hostChannel.listening = hostChannelServer.start().catch((err: unknown) => {
    hostLog.error({ err }, 'the host channel could not open: host actions cannot be approved on this machine until the next start');
  });
  return container;
}

/**
 * Who owns each catalog table, and the named departures from "one owner" (issue 26, point 3). Read by
 * table-ownership.test.ts, which checks the server's source against it.
 *
 * The rule:
 * - Each table created by a migration has one owner: a folder under server/src (a feature, or a platform
 *   module), the one whose migration made it. Only the owner's `*.store.ts` files write it (INSERT, UPDATE,
 *   DELETE, REPLACE); other code asks that store. A write anywhere else is listed in WRITE_EXCEPTIONS with why.
 * - Another folder reads a table only as a named read model (READ_MODELS: the readers and why they read the
 *   rows themselves instead of asking the owner) or a named exception (READ_EXCEPTIONS).
 * - Prepared statements (`prepare(`, `prepared(`) outside `*.store.ts` files may not grow past PREPARE_BASELINE
 *   (counted at issue 26): SQL goes into stores; the counts may only fall (lower them when they do).
 *
 * Entries marked "to move" are debts known at issue 26 (parts A and B of the issue move them); the others are
 * decisions. Folders are relative to server/src.
 */

export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  // 0001_foundation
  users: 'features/users',
  sessions: 'features/auth',
  refresh_tokens: 'features/auth',
  password_change_tokens: 'features/auth',
  settings: 'config',
  repositories: 'features/repositories',
  // 0002_jobs
  jobs: 'platform/jobs',
  // 0003_library
  assets: 'features/assets',
  media_items: 'features/assets',
  media_item_components: 'features/assets',
  repository_scans: 'features/repositories',
  upload_sessions: 'features/uploads',
  upload_receipts: 'features/uploads',
  // 0004_indexing
  asset_index_entries: 'features/indexing',
  // 0005_organise
  albums: 'features/albums',
  album_assets: 'features/albums',
  tags: 'features/tags',
  asset_tags: 'features/tags',
  stacks: 'features/stacks',
  stack_members: 'features/stacks',
  species_predictions: 'features/species',
  // 0009_crash_recovery
  // 0009_crash_recovery's upload_commits, renamed by 0030_intake_commits: the door's crash-safety record for every source
  intake_commits: 'features/intake',
  // 0012_change_journal
  change_journal: 'platform/cache',
  // 0013_invites
  invites: 'features/auth',
  // 0014_sharing
  partner_shares: 'features/sharing',
  album_members: 'features/albums',
  asset_user_marks: 'features/assets',
  share_links: 'features/sharing',
  share_link_assets: 'features/sharing',
  // 0016_ocr_text
  ocr_results: 'features/ocr',
  ocr_lines: 'features/ocr',
  ocr_lines_fts: 'features/ocr',
  // 0017_semantic_vectors
  semantic_vectors: 'features/semantic',
  // 0019_search_words_fts (kept by triggers on assets)
  assets_words_fts: 'features/search',
  // 0020_duplicates
  duplicate_groups: 'features/duplicates',
  duplicate_group_members: 'features/duplicates',
  duplicate_group_edges: 'features/duplicates',
  duplicate_detections: 'features/duplicates',
  // 0021_events
  photo_events: 'features/photo-events',
  photo_event_members: 'features/photo-events',
  photo_event_item_labels: 'features/photo-events',
  photo_event_links: 'features/photo-events',
  photo_event_owner_state: 'features/photo-events',
  photo_event_dirty_ranges: 'features/photo-events',
  // 0022_places
  place_cells: 'features/places',
  place_cells_fts: 'features/places',
  location_clusters: 'features/places',
  location_cluster_members: 'features/places',
  // 0024_faces_people
  people: 'features/faces',
  face_results: 'features/faces',
  faces: 'features/faces',
  face_rejections: 'features/faces',
  // 0025_species_reference
  species_references: 'features/species',
  // 0026_capture_sources
  asset_corrections: 'features/assets',
  asset_correction_items: 'features/assets',
  // 0031_asset_source_facts: what a source said of a file, for the precedence rule (fact-precedence.ts)
  asset_source_facts: 'features/assets',
  // 0032_account_security: the second factor, its sign-in challenges and step-up proofs (mfa.store.ts)
  totp_credentials: 'features/auth',
  totp_setups: 'features/auth',
  recovery_codes: 'features/auth',
  mfa_challenges: 'features/auth',
  security_proofs: 'features/auth',
  // 0033_passkeys
  passkeys: 'features/auth',
  webauthn_ceremonies: 'features/auth',
  registration_stages: 'features/auth',
  // 0034_cloud_import: connections, bound sources, runs, their per-file cursors and reports (features/cloud-import)
  cloud_credentials: 'features/cloud-import',
  cloud_sources: 'features/cloud-import',
  import_runs: 'features/cloud-import',
  import_cursors: 'features/cloud-import',
  import_run_files: 'features/cloud-import',
  // 0035_takeout_uploads: Takeout parts uploaded from the browser (features/cloud-import)
  takeout_uploads: 'features/cloud-import',
  // 0036_source_pairs: files a source says belong together (an edited copy, a live photo's clip), for the media item linker
  asset_source_pairs: 'features/assets',
  // 0037_host_actions: members' requests that the home machine add a folder (features/host-actions)
  host_actions: 'features/host-actions',
  // 0038_agent: the assistant's threads, messages, runs, refs, effects and pins (features/agent)
  agent_threads: 'features/agent',
  agent_messages: 'features/agent',
  agent_runs: 'features/agent',
  agent_refs: 'features/agent',
  agent_effects: 'features/agent',
  agent_pins: 'features/agent',
};

export interface Departure {
  table: string;
  file: string;
  reason: string;
}

/** Writes outside the owner's `*.store.ts` files, each with why. */
export const WRITE_EXCEPTIONS: readonly Departure[] = [
  { table: 'settings', file: 'config/settings.ts', reason: 'SettingsStore is the settings table’s store; config has no feature folder to name it *.store.ts in' },
  { table: 'jobs', file: 'platform/jobs/queue.ts', reason: 'the job queue is the jobs table’s store' },
  { table: 'jobs', file: 'platform/jobs/runner.ts', reason: 'the runner claims and settles jobs in the queue’s transactions' },
  { table: 'jobs', file: 'features/indexing/indexing.service.ts', reason: 'to move: waking the index jobs that waited for a model belongs in JobQueue' },
  { table: 'jobs', file: 'features/photo-events/photo-events.service.ts', reason: 'to move: running a debounced rebuild now belongs in JobQueue' },
  { table: 'users', file: 'features/assets/trash/trash.store.ts', reason: 'an asset deleted for good stops being an avatar in the same transaction (the foreign key is not ON DELETE SET NULL)' },
  { table: 'repositories', file: 'features/repositories/registration.ts', reason: 'to move into repositories.store.ts' },
  { table: 'repository_scans', file: 'features/repositories/scheduling.ts', reason: 'to move into repositories.store.ts' },
  { table: 'assets', file: 'features/assets/pipeline/interrupted-assets.ts', reason: 'to move into assets.store.ts (part B): settling assets a crash interrupted' },
  { table: 'media_items', file: 'features/assets/pipeline/media-items.ts', reason: 'to move into assets.store.ts: grouping RAW+JPEG and live photos' },
  { table: 'media_item_components', file: 'features/assets/pipeline/media-items.ts', reason: 'to move into assets.store.ts: grouping RAW+JPEG and live photos' },
  { table: 'asset_user_marks', file: 'features/assets/marks.ts', reason: 'MarksStore is the marks table’s store (to rename marks.store.ts)' },
  { table: 'asset_index_entries', file: 'features/indexing/indexing.service.ts', reason: 'to move into an indexing store' },
  { table: 'upload_sessions', file: 'features/uploads/chunk-sync.ts', reason: 'to move into uploads.store.ts (part A)' },
  { table: 'upload_sessions', file: 'features/uploads/startup-recovery.ts', reason: 'to move into uploads.store.ts (part A)' },
  { table: 'upload_receipts', file: 'features/uploads/startup-recovery.ts', reason: 'to move into uploads.store.ts (part A)' },
  { table: 'albums', file: 'features/duplicates/duplicates.store.ts', reason: 'a merge of exact copies moves the copies’ album places to the keeper in its own transaction' },
  { table: 'album_assets', file: 'features/duplicates/duplicates.store.ts', reason: 'a merge of exact copies moves the copies’ album places to the keeper in its own transaction' },
  { table: 'asset_tags', file: 'features/duplicates/duplicates.store.ts', reason: 'a merge of exact copies moves the copies’ tags to the keeper in its own transaction' },
  { table: 'tags', file: 'features/semantic/zero-shot/zeroshot-tags.store.ts', reason: 'zero-shot labels are tags of their own source (`zeroshot`), written with their vectors' },
  { table: 'asset_tags', file: 'features/semantic/zero-shot/zeroshot-tags.store.ts', reason: 'zero-shot labels are tags of their own source (`zeroshot`), written with their vectors' },
  { table: 'change_journal', file: 'features/photo-events/photo-events.store.ts', reason: 'photo events have no trigger: a rebuild marks its dependency in the journal so the kept lists that filter by event follow' },
  { table: 'photo_event_members', file: 'features/photo-events/photo-events.service.ts', reason: 'to move into photo-events.store.ts' },
  { table: 'photo_event_item_labels', file: 'features/photo-events/photo-events.service.ts', reason: 'to move into photo-events.store.ts' },
  { table: 'place_cells', file: 'features/places/place-names.ts', reason: 'to move into a places store: naming cells' },
  { table: 'people', file: 'features/faces/people.service.ts', reason: 'to move into faces.store.ts' },
  { table: 'faces', file: 'features/faces/people.service.ts', reason: 'to move into faces.store.ts' },
  { table: 'face_rejections', file: 'features/faces/people.service.ts', reason: 'to move into faces.store.ts' },
  { table: 'faces', file: 'features/faces/face-links.ts', reason: 'to move into faces.store.ts: faces follow a merge of exact copies' },
  { table: 'face_rejections', file: 'features/faces/face-links.ts', reason: 'to move into faces.store.ts: faces follow a merge of exact copies' },
];

export interface ReadModel {
  /** Folders (a feature or platform module) that read the table's rows themselves. */
  readers: readonly string[];
  reason: string;
}

/** Tables other folders read by SQL: the catalog's read side, named. Anything else asks the owner's store. */
export const READ_MODELS: Readonly<Record<string, ReadModel>> = {
  assets: {
    readers: [
      'features/agent', 'features/albums', 'features/browse', 'features/duplicates', 'features/faces', 'features/featured', 'features/folders',
      'features/indexing', 'features/ocr', 'features/photo-events', 'features/places', 'features/repositories', 'features/search',
      'features/semantic', 'features/sharing', 'features/stacks', 'features/statistics', 'features/tags', 'features/uploads',
      'features/users', 'platform/access',
    ],
    reason: 'the catalog: every list, count, filter and join of the library reads asset rows in its own query (one SQL statement, one snapshot); the access layer’s rules are SQL over them',
  },
  media_items: { readers: ['features/browse', 'features/photo-events', 'features/places', 'features/stacks'], reason: 'lists show one tile per media item (a RAW+JPEG pair is one)' },
  media_item_components: { readers: ['features/browse', 'features/photo-events', 'features/stacks', 'features/statistics'], reason: 'lists show one tile per media item (a RAW+JPEG pair is one)' },
  albums: { readers: ['features/assets', 'features/browse', 'features/photo-events', 'features/search', 'features/sharing', 'platform/access'], reason: 'an asset’s albums, the album filter, search by album name, shared albums and their access rules' },
  album_assets: { readers: ['features/assets', 'features/browse', 'features/duplicates', 'features/photo-events', 'features/search', 'features/sharing', 'platform/access'], reason: 'an asset’s albums, the album filter, search by album name, shared albums and merges of copies' },
  album_members: { readers: ['features/search', 'platform/access'], reason: 'what a shared album’s members may see' },
  tags: { readers: ['features/assets', 'features/browse', 'features/search'], reason: 'an asset’s tags, the tag filter and search by tag' },
  asset_tags: { readers: ['features/assets', 'features/browse', 'features/duplicates', 'features/search'], reason: 'an asset’s tags, the tag filter, search by tag and merges of copies' },
  stacks: { readers: ['features/assets', 'features/browse'], reason: 'an asset’s stack and collapsed stacks in lists' },
  stack_members: { readers: ['features/assets', 'features/browse', 'features/duplicates', 'features/photo-events'], reason: 'an asset’s stack, collapsed stacks in lists, copies stacked on purpose and event covers' },
  species_predictions: { readers: ['features/albums', 'features/assets'], reason: 'an asset’s species and smart albums by species' },
  partner_shares: { readers: ['features/search', 'platform/access'], reason: 'whose assets a partner sees' },
  share_link_assets: { readers: ['platform/access'], reason: 'what a share link’s visitor may see' },
  semantic_vectors: { readers: ['features/search'], reason: 'the semantic channel scans the vectors (search by text and by image)' },
  assets_words_fts: { readers: ['features/search'], reason: 'search reads the full-text index that triggers on assets keep' },
  photo_events: { readers: ['features/browse'], reason: 'the event filter of lists' },
  photo_event_members: { readers: ['features/browse'], reason: 'the event filter of lists' },
  place_cells: { readers: ['features/agent', 'features/assets', 'features/browse', 'features/search'], reason: 'an asset’s place, the place filter, search by place and the assistant’s place facets' },
  place_cells_fts: { readers: ['features/search'], reason: 'search by place name' },
  people: { readers: ['features/agent', 'features/browse'], reason: 'the person filter of lists; the assistant’s “who is in these” (the reader’s own named people)' },
  faces: { readers: ['features/agent', 'features/browse'], reason: 'the person filter of lists; the assistant’s “who is in these” (the reader’s own named people)' },
  users: {
    readers: ['features/auth', 'features/host-actions', 'features/repositories'],
    reason: 'sign-in reads the account; a host action shows who asked (name, display name) to the person at the home machine; a repository’s files belong to its default owner or the oldest administrator',
  },
  sessions: { readers: ['features/users'], reason: 'a member’s sessions listed and ended by an administrator' },
  jobs: {
    readers: ['features/assets', 'features/faces', 'features/indexing', 'features/photo-events', 'features/repositories'],
    reason: 'features report their own queued and running jobs (progress, waiting assets, scans) from the queue’s table',
  },
};

/** Foreign reads that are not a read model, each with why. */
export const READ_EXCEPTIONS: readonly Departure[] = [
  { table: 'users', file: 'warm-up.ts', reason: 'the start warms the pages of the tables the first requests read' },
  { table: 'assets', file: 'warm-up.ts', reason: 'the start warms the pages of the tables the first requests read' },
  { table: 'tags', file: 'features/semantic/zero-shot/zeroshot-tags.store.ts', reason: 'zero-shot labels are tags of their own source, read back with their vectors (see WRITE_EXCEPTIONS)' },
  { table: 'asset_tags', file: 'features/semantic/zero-shot/zeroshot-tags.store.ts', reason: 'zero-shot labels are tags of their own source, read back with their vectors (see WRITE_EXCEPTIONS)' },
  { table: 'repositories', file: 'features/assets/asset-references.ts', reason: 'job errors name files by repository path for administrators' },
  { table: 'repositories', file: 'features/folders/folders.store.ts', reason: 'folder lists are ordered by repository name (RepositoriesService.all() orders the primary first)' },
  { table: 'repositories', file: 'features/uploads/uploads.store.ts', reason: 'to go with part A: an upload’s repository is the door’s to look up' },
  { table: 'intake_commits', file: 'features/uploads/startup-recovery.ts', reason: 'receipts nobody continues fail in one start-up UPDATE that skips those whose commit the door still holds (a statement across both tables)' },
];

/** `prepare(`/`prepared(` per file outside `*.store.ts` at issue 26; may only fall. */
export const PREPARE_BASELINE: Readonly<Record<string, number>> = {
  'config/settings.ts': 4,
  'features/assets/asset-references.ts': 4,
  'features/assets/corrections/corrections.service.ts': 1,
  'features/assets/marks.ts': 2,
  'features/assets/pipeline/interrupted-assets.ts': 6,
  'features/assets/pipeline/media-items.ts': 13,
  'features/assets/pipeline/pipeline.ts': 2,
  'features/assets/pipeline/waiting-for-tools.ts': 2,
  'features/auth/auth.service.ts': 1,
  'features/browse/browse.lists.ts': 1,
  'features/browse/browse.service.ts': 1,
  'features/browse/browse.shape.ts': 10,
  'features/duplicates/duplicates.service.ts': 1,
  'features/duplicates/phash.backfill.ts': 4,
  'features/faces/face-links.ts': 5,
  'features/faces/faces.view.ts': 3,
  'features/faces/people.service.ts': 29,
  'features/folders/folder-totals.ts': 1,
  'features/folders/folders.service.ts': 2,
  'features/indexing/indexing.service.ts': 10,
  'features/photo-events/photo-events.service.ts': 12,
  'features/photo-events/relations.ts': 2,
  'features/places/map-index.ts': 4,
  'features/places/place-names.ts': 5,
  'features/repositories/registration.ts': 2,
  'features/repositories/scheduling.ts': 1,
  'features/search/channels/filename.ts': 2,
  'features/search/channels/nearest-vectors.ts': 2,
  'features/search/channels/place.ts': 2,
  'features/search/channels/text.ts': 4,
  'features/search/search.service.ts': 2,
  'features/semantic/vector-index/exact-scan.ts': 2,
  'features/semantic/vector-index/loader.ts': 3,
  'features/sharing/links.service.ts': 1,
  'features/stacks/detect.ts': 6,
  'features/stacks/stacks.service.ts': 1,
  'features/statistics/owner-facts.ts': 4,
  'features/statistics/scope.ts': 1,
  'features/system/system.service.ts': 1,
  'features/uploads/chunk-sync.ts': 6,
  'features/uploads/startup-recovery.ts': 3,
  'features/users/members.ts': 3,
  'platform/access/access.ts': 3,
  'platform/cache/change-journal.ts': 3,
  'platform/cache/snapshot-reader.ts': 1,
  'platform/cache/snapshot-worker.ts': 2,
  'platform/db/migrate.ts': 3,
  'platform/db/prepared.ts': 2,
  'platform/jobs/queue.ts': 14,
  'platform/jobs/registry.ts': 1,
  'platform/jobs/runner.ts': 4,
  'warm-up.ts': 1,
};

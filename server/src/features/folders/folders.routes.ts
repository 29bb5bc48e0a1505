/**
 * Browsing, search, statistics: folders derived from where files sit in their repository.
 *
 * | operationId | method and path                  |
 * |-------------|----------------------------------|
 * | listFolders | GET /api/v1/assets/folders        |
 * | getFolder   | GET /api/v1/assets/folders/summary |
 *
 * Decisions: see folders.service.ts. Paths are repository-relative with forward slashes, no leading
 * slash, no `.`/`..`/empty segments, at most 4096 characters (422 otherwise); a trailing slash is
 * ignored; '' is the repository root.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

const TAG = 'Browsing, search, statistics';

export const FolderPathQuery = z
  .string()
  .max(4096)
  .superRefine((p, ctx) => {
    if (p.startsWith('/')) ctx.addIssue({ code: 'custom', message: 'must be repository-relative (no leading /)' });
    else if (p.includes('\0')) ctx.addIssue({ code: 'custom', message: 'must not contain NUL characters' });
    else {
      const segments = p.replace(/\/+$/, '').split('/');
      if (segments.some((s) => s === '.' || s === '..')) ctx.addIssue({ code: 'custom', message: 'must not contain . or .. segments' });
      else if (p.replace(/\/+$/, '') !== '' && segments.some((s) => s === '')) ctx.addIssue({ code: 'custom', message: 'must not contain empty segments (//)' });
    }
  })
  .transform((p) => p.replace(/\/+$/, ''));

export const FolderSummarySchema = z
  .object({
    asset_count: z.number().int().openapi({ description: 'Your files in the folder and below it (not in the Trash).' }),
    audio_count: z.number().int(),
    photo_count: z.number().int(),
    video_count: z.number().int(),
    cover_asset_id: z.string().nullable().openapi({
      description: 'Newest photo below the folder with ready thumbnails; else the newest ready video; else the newest photo or video still processing; null for audio only.',
    }),
    date_start: z.string().openapi({ description: 'Oldest capture time (else upload time) below the folder, ISO 8601.' }),
    date_end: z.string().openapi({ description: 'Newest capture time (else upload time) below the folder, ISO 8601.' }),
    depth: z.number().int().openapi({ description: 'Path segments: 0 for the repository root, 1 for `2024`, 2 for `2024/summer`.' }),
    display_name: z.string().openapi({ description: 'The last path segment; the repository name for the root.' }),
    folder_path: z.string().openapi({ description: 'Repository-relative path, no leading or trailing slash.', example: '2024/summer' }),
    repository_id: z.string(),
    repository_name: z.string(),
  })
  .openapi('FolderSummary');
export type FolderSummary = z.infer<typeof FolderSummarySchema>;

export const FolderListSchema = z
  .object({
    folders: z.array(FolderSummarySchema),
    parent_path: z.string().openapi({ description: 'The listed parent, normalised (trailing slash removed).' }),
  })
  .openapi('FolderList');
export type FolderList = z.infer<typeof FolderListSchema>;

export const listFolders = defineRoute('user', {
  method: 'get',
  path: '/assets/folders',
  operationId: 'listFolders',
  summary: 'The folders directly under a folder, with what they hold',
  description: [
    'Folders are where your files sit inside a repository; there is no folder table. Each child folder of `path` that holds at least one of your files (not in the Trash), anywhere below it, is listed with recursive counts, its time span and a cover.',
    'Only your own files count (administrators too). Without `repository_id`, lists the children of `path` in every repository. A path with no child folders (a leaf, or nothing of yours) gives an empty list.',
    'Order: repository name, then folder name in natural order. Unknown `repository_id`: 404. A bad `path` (leading slash, `.`/`..` or empty segments, over 4096 characters): 422.',
  ].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      repository_id: z.uuid().optional().openapi({ description: 'Only this repository.' }),
      path: FolderPathQuery.optional()
        .default('')
        .openapi({ description: 'The parent folder, repository-relative (`2024/summer`); empty or absent for the root.' }),
    }),
  },
  responses: {
    200: jsonResponse(FolderListSchema),
    ...errorResponses(404),
  },
});

export const getFolder = defineRoute('user', {
  method: 'get',
  path: '/assets/folders/summary',
  operationId: 'getFolder',
  summary: 'One folder: what it holds, recursively',
  description: [
    'The summary of one folder: counts of your files in it and below it (not in the Trash), time span and cover. `path` empty or absent is the repository root (display_name is then the repository name).',
    '404 when the repository is unknown or you have no files there (another member’s folder does not exist for you). A bad `path`: 422.',
  ].join('\n\n'),
  tags: [TAG],
  request: {
    query: z.object({
      repository_id: z.uuid().openapi({ description: 'The repository (required).' }),
      path: FolderPathQuery.optional().default('').openapi({ description: 'Repository-relative folder; empty for the root.' }),
    }),
  },
  responses: {
    200: jsonResponse(FolderSummarySchema),
    ...errorResponses(404),
  },
});

-- A photo's RAW or JPEG partner is the file of the same folder with the same name before its extension, any
-- letter case (features/assets/pipeline/media-items.ts, pairPartner). It was found by reading every photo of the
-- folder (the folder index, then LIKE on each path): one file of a 5,000-photo camera folder read 5,000 rows
-- while it was processed, so an import of that folder read 12.5 million. With the path folded to lower case in
-- an index, the partners are one range of it: 'dir/img_0042.' up to 'dir/img_0042/'. lower() folds ASCII only,
-- as LIKE does; the pipeline compares the names fully (Unicode) on the few rows the range gives.
CREATE INDEX assets_repo_path_folded ON assets (repository_id, lower(storage_path));

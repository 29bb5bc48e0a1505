-- Chunks of an upload session are answered once written and flushed to disk behind the answer
-- (features/uploads/chunk-sync.ts). Until its flush completes a chunk is listed here, with the boot
-- of the machine it was written in: at a start after a reboot (a power cut may have lost the page
-- cache) such chunks are no longer counted as received, and the client sends them again on resume.
-- Additive: rows of older servers have no unflushed chunks (every chunk was fsynced before it counted).
ALTER TABLE upload_sessions ADD COLUMN unsynced_chunks TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(unsynced_chunks));
ALTER TABLE upload_sessions ADD COLUMN written_boot_id TEXT;

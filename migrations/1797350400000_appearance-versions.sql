-- Up Migration

-- An appearance is a translation's record across its versions (src/server/store/records.ts, appearanceWrites): it
-- appeared (`create`), its text changed (`update`, another digest of what a follower sees) or it was withdrawn
-- (`delete`), each a new version handed once to the consumers. The rows recorded before are their first version, their
-- digest filled in by the next recording without handing anything on.
ALTER TABLE appearances
  ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  ADD COLUMN change text NOT NULL DEFAULT 'create' CHECK (change IN ('create', 'update', 'delete')),
  ADD COLUMN digest text,
  ADD COLUMN updated_at timestamptz;

-- Down Migration

ALTER TABLE appearances
  DROP COLUMN updated_at,
  DROP COLUMN digest,
  DROP COLUMN change,
  DROP COLUMN version;

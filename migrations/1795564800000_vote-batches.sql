-- Up Migration

-- Votes are written in batches (src/server/store/postgres/vote-batch.ts): a
-- batch reads the votes it changes without locking them, then sets each one
-- only if it still holds what was read. When one did not, the statement calls
-- this to fail whole, so that the batch is applied again with its rows locked.
CREATE FUNCTION vote_changed_meanwhile() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a vote changed after it was read' USING ERRCODE = 'serialization_failure';
END
$$;

-- Down Migration

DROP FUNCTION vote_changed_meanwhile();

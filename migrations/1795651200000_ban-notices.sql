-- Up Migration

-- Each instance of the site holds the owner's bans in memory and follows
-- their changes on this channel (src/server/store/postgres/ban-watch.ts):
-- `+hash` for a ban, `-hash` for a lifted one, `*` to read them all again.
CREATE FUNCTION notify_ban_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('bans_changed', '+' || NEW.reader_hash);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bans_changed', '-' || OLD.reader_hash);
  ELSE
    PERFORM pg_notify('bans_changed', '*');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ban_changed AFTER INSERT OR UPDATE OR DELETE ON bans FOR EACH ROW EXECUTE FUNCTION notify_ban_change();
CREATE TRIGGER bans_emptied AFTER TRUNCATE ON bans FOR EACH STATEMENT EXECUTE FUNCTION notify_ban_change();

-- Down Migration

DROP TRIGGER bans_emptied ON bans;
DROP TRIGGER ban_changed ON bans;
DROP FUNCTION notify_ban_change();

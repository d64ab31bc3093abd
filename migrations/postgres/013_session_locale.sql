-- The console's language a session chose with the header's switch (en, ko); NULL: the browser's
-- Accept-Language decides at every request. In the session row, so a restart or another replica
-- keeps the choice as it keeps the session.
ALTER TABLE sessions ADD COLUMN locale TEXT;

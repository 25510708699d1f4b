-- The runtime database role: what the web, the workers and beat need, and nothing more.
--
-- The role that ran `migrate` owns the tables; the runtime role (which DATABASE_URL names for
-- gunicorn, celery and beat) may read, add and change rows as the application does, but:
--   * the event log is append-only: SELECT and INSERT only (and the table's trigger refuses
--     UPDATE and DELETE to everyone: django-pgtrigger);
--   * games, seats, the mail outbox, snapshots and the record of inbound mail are never deleted
--     by the application, so the runtime role cannot delete them; snapshots are never updated
--     (`rebuild_snapshots` is an operator's job: run it as the owner);
--   * TRUNCATE (which bypasses row triggers), REFERENCES and TRIGGER are granted on nothing.
-- Django's own tables (sessions, API tokens, login attempts, admin log, users and groups) keep
-- DELETE: logging out, revoking a token and clearing old sessions delete rows.
--
-- Run as the owner after every `migrate` (it is idempotent; new tables need their grants):
--   psql -v dbname=kriegsbrief -f deploy/db-roles.sql
-- Optional: -v app_role=<name> (default kriegsbrief_app). Then give the role a password
-- (\password kriegsbrief_app) or a pg_hba.conf rule, and use it in DATABASE_URL.

\set ON_ERROR_STOP on
\if :{?dbname}
\else
  DO $$ BEGIN RAISE EXCEPTION 'give the database: psql -v dbname=<database> -f deploy/db-roles.sql'; END $$;
\endif
\if :{?app_role}
\else
  \set app_role kriegsbrief_app
\endif

\connect :"dbname"

SELECT format('CREATE ROLE %I LOGIN', :'app_role')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app_role') \gexec

GRANT CONNECT, TEMPORARY ON DATABASE :"dbname" TO :"app_role";
GRANT USAGE ON SCHEMA public TO :"app_role";

-- Start from nothing, so running the script again after a change takes back what it no longer gives.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM :"app_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app_role";

REVOKE UPDATE, DELETE ON campaigns_event FROM :"app_role";
REVOKE UPDATE, DELETE ON campaigns_snapshot FROM :"app_role";
REVOKE DELETE ON campaigns_game, campaigns_campaign, campaigns_seat, campaigns_outboxmail FROM :"app_role";
REVOKE DELETE ON mailin_inboundmessage, mailin_seataddress FROM :"app_role";
-- A campaign's record and the names its old entries are hashed with are append-only, like a game's log.
REVOKE UPDATE, DELETE ON battles_campaignevent, battles_legacyrecordname FROM :"app_role";
-- The migration history is the owner's.
REVOKE INSERT, UPDATE, DELETE ON django_migrations FROM :"app_role";

-- Production roles: a migration role owns the tables; the runtime role may
-- only read and append to the event log. TRUNCATE bypasses row triggers, so
-- the runtime role is simply never granted it (nor UPDATE or DELETE).
-- Run as the owner after `migrate`:  psql -f deploy/db-roles.sql
CREATE ROLE kriegsbrief_app LOGIN;
GRANT CONNECT ON DATABASE kriegsbrief TO kriegsbrief_app;
GRANT USAGE ON SCHEMA public TO kriegsbrief_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO kriegsbrief_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO kriegsbrief_app;
REVOKE UPDATE, DELETE, TRUNCATE ON campaigns_event FROM kriegsbrief_app;

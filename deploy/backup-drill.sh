#!/usr/bin/env bash
# Backup and restore drill (README, "Backup and restore drill"): dump a database, restore the dump
# into a scratch database, verify every game there, compare row counts, drop the scratch copy.
#   deploy/backup-drill.sh <database>        (PGHOST, PGPORT, PGUSER, PGPASSWORD as for psql;
#                                             default 127.0.0.1 and postgres; BACKUP_DIR: var/backups)
# Exit status 0 only if the restore verified and every count matched. The dump is kept.
set -euo pipefail
DB="${1:?usage: deploy/backup-drill.sh <database>}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
cd "$(dirname "$0")/.."
OUT="${BACKUP_DIR:-var/backups}"
mkdir -p "$OUT"
DUMP="$OUT/$DB-$(date -u +%Y%m%dT%H%M%SZ).dump"
SCRATCH="${DB}_drill_$$"
trap 'dropdb --if-exists "$SCRATCH"' EXIT

COUNTS="SELECT 'events', count(*) FROM campaigns_event UNION ALL SELECT 'games', count(*) FROM campaigns_game
  UNION ALL SELECT 'seats', count(*) FROM campaigns_seat UNION ALL SELECT 'snapshots', count(*) FROM campaigns_snapshot
  UNION ALL SELECT 'outbox', count(*) FROM campaigns_outboxmail UNION ALL SELECT 'users', count(*) FROM auth_user
  UNION ALL SELECT 'inbound', count(*) FROM mailin_inboundmessage ORDER BY 1"

start=$(date +%s.%N)
# One consistent snapshot of the database (pg_dump runs in a single repeatable-read transaction),
# taken while the service runs.
pg_dump --format=custom --dbname="$DB" --file="$DUMP"
before=$(psql -X -At -d "$DB" -c "$COUNTS")
dumped=$(date +%s.%N)
echo "dump:    $DUMP ($(du -h "$DUMP" | cut -f1)) in $(echo "$dumped - $start" | bc) s"

createdb "$SCRATCH"
pg_restore --no-owner --exit-on-error --dbname="$SCRATCH" "$DUMP"
restored=$(date +%s.%N)
echo "restore: into $SCRATCH in $(echo "$restored - $dumped" | bc) s"

after=$(psql -X -At -d "$SCRATCH" -c "$COUNTS")
# The live counts are read just after the dump: on a running service they may have grown
# meanwhile, never shrunk; the restored copy must hold no row the live database lacks.
paste -d'|' <(echo "$after") <(echo "$before") | awk -F'|' '
  { printf "  %-10s restored %8d   live %8d%s\n", $1, $2, $4, ($4 > $2 ? "   (written since the dump)" : "");
    if ($2 > $4) bad = 1 }
  END { exit bad }'
DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$SCRATCH" ./kb verify_game all
echo "verified in $(echo "$(date +%s.%N) - $restored" | bc) s; drill passed"

#!/bin/sh
# Creates Temporal's two PostgreSQL databases (history and visibility) and brings their schemas to the
# version the admin-tools image ships. Safe to run on every `docker compose up`: existing databases are
# kept and only upgraded.
set -eu

tool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" -u "$POSTGRES_USER" "$@"
}

for db in temporal temporal_visibility; do
  case "$db" in
    temporal) schema=temporal ;;
    *) schema=visibility ;;
  esac
  tool --db "$db" create || echo "database $db exists"
  tool --db "$db" setup-schema -v 0.0 || echo "schema of $db already set up"
  tool --db "$db" update-schema -d "/etc/temporal/schema/postgresql/v12/$schema/versioned"
done
echo "Temporal schemas are up to date"

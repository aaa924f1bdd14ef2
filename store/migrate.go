package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded files in version order. A file whose name
// does not start with a number is a build mistake and fails start-up.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	seen := map[int]string{}
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %q: name must start with a positive number and '_'", base)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %q and %q share version %d", prev, base, v)
		}
		seen[v] = base
		body, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// migrate applies pending migrations on one writer connection, each in its
// own transaction, then checks foreign keys. Migrations are forward-only.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: connect: %w", err)
	}
	defer conn.Close()

	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`); err != nil {
		return fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	var current int
	if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("migrate: read version: %w", err)
	}
	pending := 0
	for _, m := range ms {
		if m.version > current {
			pending++
		}
	}
	if pending == 0 {
		return stampVersion(ctx, conn, current)
	}
	db.log.Info("upgrading database schema", "path", db.path, "from", current, "pending", pending)
	// Foreign keys off while tables are rebuilt; checked as a whole afterwards.
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)

	for _, m := range ms {
		if m.version <= current {
			continue
		}
		if err := applyMigration(ctx, conn, m, fmtTime(db.Now())); err != nil {
			return err
		}
	}
	rows, err := conn.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("migrate: foreign key check: %w", err)
	}
	defer rows.Close()
	if rows.Next() {
		return fmt.Errorf("migrate: foreign key check found violations after migrating")
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, applicationID)); err != nil {
		return fmt.Errorf("migrate: set application id: %w", err)
	}
	_, _ = conn.ExecContext(ctx, `ANALYZE`)
	return stampVersion(ctx, conn, ms[len(ms)-1].version)
}

// stampVersion copies the schema's version into the file header's
// user_version, which DB.Current reads without loading the schema. Only
// here, after the migrations up to it have committed; a file stamped by no
// build (0) or an older one is checked by Ready before serving. Written
// only when it differs: a restart writes nothing.
func stampVersion(ctx context.Context, conn *sql.Conn, version int) error {
	var stamped int
	if err := conn.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&stamped); err != nil {
		return fmt.Errorf("migrate: read user_version: %w", err)
	}
	if stamped == version {
		return nil
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, version)); err != nil {
		return fmt.Errorf("migrate: stamp user_version: %w", err)
	}
	return nil
}

func applyMigration(ctx context.Context, conn *sql.Conn, m migration, now string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: begin: %w", m.name, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, now); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return nil
}

// LatestVersion is the schema version this build migrates to.
func LatestVersion() (int, error) {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	return ms[len(ms)-1].version, nil
}

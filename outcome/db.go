package outcome

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/agentevals-go/agentevals/suite"
)

// stateDB is one database of the suite: a read-only pool for state checks
// and, opened on first use, a writable one for setup and teardown SQL. Its
// URL is kept here only, never in an error, a row or a report.
type stateDB struct {
	name, env string
	postgres  bool
	url       string
	ro        *sql.DB

	mu sync.Mutex
	rw *sql.DB
}

// maxRows bounds the rows a state check reads.
const maxRows = 1000

func openState(ctx context.Context, d suite.Database, url string) (*stateDB, error) {
	db := &stateDB{name: d.Name, env: d.URLEnv, url: url}
	var err error
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		db.postgres = true
		db.ro, err = sql.Open("pgx", url)
	case strings.HasPrefix(url, "sqlite:"), strings.HasPrefix(url, "file:"):
		db.ro, err = sql.Open("sqlite", sqliteDSN(url, true))
	default:
		return nil, fmt.Errorf("the URL in %s is neither postgres://… nor sqlite:PATH", d.URLEnv)
	}
	if err != nil {
		return nil, db.hide(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.ro.PingContext(pctx); err != nil {
		_ = db.ro.Close()
		return nil, fmt.Errorf("cannot connect to the database in %s: %w", d.URLEnv, db.hide(err))
	}
	return db, nil
}

// sqliteDSN is the driver's name for a sqlite:PATH URL: read-only (the
// file opened read-only and every statement refused a write) or writable.
func sqliteDSN(url string, readOnly bool) string {
	p := strings.TrimPrefix(url, "sqlite://")
	p = strings.TrimPrefix(p, "sqlite:")
	p = strings.TrimPrefix(p, "file:")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	dsn := "file:" + p + "?_pragma=busy_timeout(5000)"
	if readOnly {
		dsn += "&mode=ro&_pragma=query_only(1)"
	}
	return dsn
}

// hide replaces the URL (and its password) in a driver's error with the
// variable's name.
func (db *stateDB) hide(err error) error {
	if err == nil {
		return nil
	}
	msg := strings.ReplaceAll(err.Error(), db.url, "$"+db.env)
	return errors.New(msg)
}

// prepare checks that query parses on the database.
func (db *stateDB) prepare(ctx context.Context, query string) error {
	tx, err := db.begin(ctx, 10*time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	st, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return fmt.Errorf("the query does not prepare on database %q: %w", db.name, db.hide(err))
	}
	return st.Close()
}

// begin starts a read-only transaction with a statement timeout.
func (db *stateDB) begin(ctx context.Context, timeout time.Duration) (*sql.Tx, error) {
	tx, err := db.ro.BeginTx(ctx, &sql.TxOptions{ReadOnly: db.postgres})
	if err != nil {
		return nil, fmt.Errorf("begin a read-only transaction on database %q: %w", db.name, db.hide(err))
	}
	if db.postgres {
		for _, stmt := range []string{"SET TRANSACTION READ ONLY", fmt.Sprintf("SET LOCAL statement_timeout = %d", timeout.Milliseconds())} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				_ = tx.Rollback()
				return nil, fmt.Errorf("%s on database %q: %w", stmt, db.name, db.hide(err))
			}
		}
	}
	return tx, nil
}

// query runs query read-only and returns at most maxRows rows, each
// column as a JSON-ready value. The transaction is always rolled back.
func (db *stateDB) query(ctx context.Context, timeout time.Duration, query string, args []any) ([][]any, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tx, err := db.begin(ctx, timeout)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, db.queryError(ctx, timeout, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, db.hide(err)
	}
	var out [][]any
	for rows.Next() {
		if len(out) == maxRows {
			return nil, fmt.Errorf("the query returned more than %d rows: narrow it (a count, a WHERE on the case's ids)", maxRows)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, db.hide(err)
		}
		for i, v := range vals {
			vals[i] = jsonReady(v)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, db.queryError(ctx, timeout, err)
	}
	return out, nil
}

// queryError says why a query failed, naming a timeout as one.
func (db *stateDB) queryError(ctx context.Context, timeout time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || strings.Contains(err.Error(), "statement timeout") {
		return fmt.Errorf("the query on database %q did not finish within its timeout of %s: %w", db.name, timeout, db.hide(err))
	}
	return fmt.Errorf("the query failed on database %q (state checks run read-only: they cannot write): %w", db.name, db.hide(err))
}

// exec runs a setup or teardown statement, which may write.
func (db *stateDB) exec(ctx context.Context, timeout time.Duration, stmt string, args []any) error {
	db.mu.Lock()
	if db.rw == nil {
		var err error
		if db.postgres {
			db.rw, err = sql.Open("pgx", db.url)
		} else {
			db.rw, err = sql.Open("sqlite", sqliteDSN(db.url, false))
		}
		if err != nil {
			db.mu.Unlock()
			return db.hide(err)
		}
	}
	rw := db.rw
	db.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := rw.ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("database %q: %w", db.name, db.hide(err))
	}
	return nil
}

func (db *stateDB) close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	var errs []error
	if db.rw != nil {
		errs = append(errs, db.rw.Close())
	}
	errs = append(errs, db.ro.Close())
	return errors.Join(errs...)
}

// jsonReady turns a scanned column into a JSON value: bytes as text,
// times as RFC 3339.
func jsonReady(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return v
}

package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver

	"github.com/agentevals-go/agentevals/sanitize"
)

// Dialect names the kind of database behind a DB.
type Dialect string

// Supported dialects.
const (
	PostgreSQL Dialect = "postgres"
	SQLite     Dialect = "sqlite"
)

// ErrUnsupportedURL is returned by Open for a URL that names neither
// PostgreSQL nor SQLite.
var ErrUnsupportedURL = errors.New("unsupported database url")

// ErrNoSQLiteDatabase is returned by a read-only Open of a SQLite file that
// does not exist: read-only opens never create one.
var ErrNoSQLiteDatabase = errors.New("no SQLite database")

// ErrNoSQLiteDirectory is returned by a writable Open of a SQLite file
// whose directory does not exist: Open never creates directories.
var ErrNoSQLiteDirectory = errors.New("no such directory")

// DB is an open evaluation-history database.
type DB struct {
	*bun.DB
	Dialect Dialect
	// URL is the address the database was opened with, credentials removed.
	URL string
	// Notes are what Open changed in the URL for PostgreSQL (Rails'
	// client-side parameters it ignored), for the caller to show.
	Notes []string

	// connectTimeout and statementTimeout are the effective OpenOptions
	// timeouts (0: none); SaveRun bounds each attempt with their sum.
	connectTimeout, statementTimeout time.Duration
	// historyWindow, when positive, bounds the baseline and flakiness
	// look-ups to this many newest earlier runs (WithHistoryWindow).
	historyWindow int
	// caps, when set, cut the values the reads return (WithValueCaps).
	caps ValueCaps
}

// OpenOptions tune Open.
type OpenOptions struct {
	// ReadOnly opens the connections read-only at the session level
	// (PostgreSQL default_transaction_read_only, SQLite mode=ro).
	ReadOnly bool
	// ConnectTimeout bounds establishing a PostgreSQL connection, the
	// startup handshake included, so a server that accepts the TCP
	// connection and never answers fails instead of hanging. Zero means
	// DefaultConnectTimeout; negative means no limit.
	ConnectTimeout time.Duration
	// StatementTimeout bounds each statement: PostgreSQL statement_timeout
	// and lock_timeout, SQLite busy_timeout. Zero means
	// DefaultStatementTimeout; negative means no limit.
	StatementTimeout time.Duration
}

// Default timeouts of Open.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultStatementTimeout = 60 * time.Second
)

// timeouts returns the effective connect and statement timeouts (0: none).
func (o OpenOptions) timeouts() (connect, statement time.Duration) {
	pick := func(d, def time.Duration) time.Duration {
		switch {
		case d == 0:
			return def
		case d < 0:
			return 0
		}
		return d
	}
	return pick(o.ConnectTimeout, DefaultConnectTimeout), pick(o.StatementTimeout, DefaultStatementTimeout)
}

// DefaultSQLitePath is where the embedded default database lives when no
// DATABASE_URL or --database-url is given: $XDG_DATA_HOME/agentevals/evaluations.sqlite3,
// falling back to ~/.local/share/agentevals/evaluations.sqlite3.
func DefaultSQLitePath() (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("locate default database: %w", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "agentevals", "evaluations.sqlite3"), nil
}

// Open opens a database from a URL: postgres:// or postgresql:// for
// PostgreSQL (pgx), sqlite:PATH, sqlite://PATH or file:PATH for SQLite.
func Open(ctx context.Context, url string, opts OpenOptions) (*DB, error) {
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return openPostgres(ctx, url, opts)
	case strings.HasPrefix(url, "sqlite:"), strings.HasPrefix(url, "file:"):
		return openSQLite(ctx, sqlitePath(url), opts)
	default:
		return nil, fmt.Errorf("open database %q: %w (want postgres://… or sqlite:PATH)", Redact(url), ErrUnsupportedURL)
	}
}

func sqlitePath(url string) string {
	p := strings.TrimPrefix(url, "sqlite://")
	p = strings.TrimPrefix(p, "sqlite:")
	p = strings.TrimPrefix(p, "file:")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p
}

func openPostgres(ctx context.Context, url string, opts OpenOptions) (*DB, error) {
	pgURL, note, err := railsURL(url)
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", Redact(url), err)
	}
	cfg, err := pgxConfig(pgURL, opts)
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", Redact(url), err)
	}
	sqldb := stdlib.OpenDB(*cfg)
	db := &DB{DB: bun.NewDB(sqldb, pgdialect.New()), Dialect: PostgreSQL, URL: Redact(url)}
	if note != "" {
		db.Notes = append(db.Notes, note)
	}
	db.connectTimeout, db.statementTimeout = opts.timeouts()
	readTolerantly(db.DB)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		if db.connectTimeout > 0 && (pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded)) && ctx.Err() == nil {
			return nil, fmt.Errorf("open database %q: the server did not answer within the connect timeout of %s "+
				"(it accepted the connection but sent nothing, or the address is unreachable): %w", Redact(url), db.connectTimeout, err)
		}
		err = withoutRefusedTLS(err)
		if hint := connectHint(err, fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)); hint != "" {
			return nil, fmt.Errorf("open database %q: %s: %w", Redact(url), hint, err)
		}
		return nil, fmt.Errorf("open database %q: %w", Redact(url), err)
	}
	return db, nil
}

// readOnlyFile reports whether the SQLite file at path can only be read
// as immutable: a WAL-mode database needs a writable directory (for its
// -shm file) even to be read, so a read-only file or directory (a copy
// from CI, a mounted volume) fails with "attempt to write a readonly
// database". Without a pending -wal file nothing can change it while we
// read, and SQLite's immutable mode reads it without any lock or journal.
func readOnlyFile(path string) bool {
	if syscall.Access(path, 2) == nil && syscall.Access(filepath.Dir(path), 2) == nil { // W_OK
		return false
	}
	fi, err := os.Stat(path + "-wal")
	return err != nil || fi.Size() == 0
}

func openSQLite(ctx context.Context, path string, opts OpenOptions) (*DB, error) {
	if path == "" {
		return nil, fmt.Errorf("open database: %w (sqlite url without a path)", ErrUnsupportedURL)
	}
	_, statement := opts.timeouts()
	if statement == 0 {
		statement = 24 * time.Hour // "no limit": SQLite's 0 would mean "never wait"
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("open database %q: is a directory, not a database file (give a file path, for example %s)", path, filepath.Join(path, "evaluations.sqlite3"))
	}
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(" + strconv.FormatInt(statement.Milliseconds(), 10) + ")&_time_format=sqlite"
	if opts.ReadOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s", ErrNoSQLiteDatabase, path)
		}
		dsn += "&mode=ro"
		if readOnlyFile(path) {
			dsn += "&immutable=1"
		}
	} else {
		// Only the embedded default's directory is created (by the caller):
		// a typo in an explicit path must not grow a directory tree.
		if dir := filepath.Dir(path); dir != "" {
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("open database %q: %w: directory %s does not exist (create it, or give a path in an existing directory)", path, ErrNoSQLiteDirectory, dir)
			}
		}
		dsn += "&_pragma=journal_mode(WAL)"
	}
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	db := &DB{DB: bun.NewDB(sqldb, sqliteDialect{sqlitedialect.New()}), Dialect: SQLite, URL: "sqlite:" + path}
	db.connectTimeout, db.statementTimeout = opts.timeouts()
	readTolerantly(db.DB)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	return db, nil
}

// Redact removes a password from a database URL for messages and
// evidence: the user information's and a credential query parameter's
// (postgres://…?password=…).
func Redact(url string) string {
	if q := strings.IndexByte(url, '?'); q >= 0 {
		url = url[:q] + sanitize.RedactText(url[q:])
	}
	at := strings.LastIndexByte(url, '@')
	scheme := strings.Index(url, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return url
	}
	userinfo := url[scheme+3 : at]
	if i := strings.IndexByte(userinfo, ':'); i >= 0 {
		return url[:scheme+3] + userinfo[:i] + ":xxxxx" + url[at:]
	}
	return url
}

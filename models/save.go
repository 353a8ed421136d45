package models

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultSaveWait bounds the total time SaveRun keeps retrying a save that
// fails for a transient reason.
const DefaultSaveWait = 2 * time.Minute

// Backoff of SaveRun between attempts: first wait, doubling up to the cap.
const (
	saveFirstBackoff = 250 * time.Millisecond
	saveMaxBackoff   = 10 * time.Second
)

// SaveOptions tune SaveRun.
type SaveOptions struct {
	// MaxWait bounds the time spent retrying after the first attempt
	// failed. Zero means DefaultSaveWait; negative means one attempt only.
	MaxWait time.Duration
	// OnRetry, when set, is told of each transient failure and how long
	// SaveRun waits before the next attempt.
	OnRetry func(attempt int, wait time.Duration, err error)
	// BeforeCommit, when set, is called in each attempt once every row is
	// written, before the commit: the commit waits for it (say, for an
	// evidence file written meanwhile).
	BeforeCommit func()
}

// SaveRun is InsertRun that does not give up easily: each attempt is
// bounded by the connect and statement timeouts the database was opened
// with, and a transient failure (connection refused or reset, a server
// restarting, serialization failure, deadlock, lock or statement timeout,
// SQLite busy) is retried with exponential backoff until MaxWait has
// passed. Before a retry it checks whether the previous attempt committed
// after all (the reply to COMMIT can be lost), so a run is never written
// twice. Permanent errors (a constraint, a full disk, a missing table)
// return at once.
func (db *DB) SaveRun(ctx context.Context, run *Run, opts SaveOptions) error {
	return db.retrySave(ctx, opts, func(retry bool) error { return db.saveAttempt(ctx, run, retry, opts.BeforeCommit) })
}

// retrySave calls attempt until it succeeds, fails for good or MaxWait
// has passed (SaveRun's loop; retry tells attempt that an earlier one may
// have committed).
func (db *DB) retrySave(ctx context.Context, opts SaveOptions, attempt func(retry bool) error) error {
	maxWait := opts.MaxWait
	if maxWait == 0 {
		maxWait = DefaultSaveWait
	}
	deadline := time.Now().Add(maxWait)
	wait := saveFirstBackoff
	for n := 1; ; n++ {
		err := attempt(n > 1)
		if err == nil || ctx.Err() != nil || !Transient(err) {
			return err
		}
		left := time.Until(deadline)
		if maxWait < 0 {
			return fmt.Errorf("%w (one attempt: retries are off)", err)
		}
		if left <= 0 {
			return fmt.Errorf("%w (gave up after %d attempt(s) in %s)", err, n, maxWait.Round(time.Millisecond))
		}
		w := min(wait, left)
		if opts.OnRetry != nil {
			opts.OnRetry(n, w, err)
		}
		t := time.NewTimer(w)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
		wait = min(2*wait, saveMaxBackoff)
	}
}

// saveAttempt makes one bounded attempt; retry says an earlier attempt may
// have committed. beforeCommit is SaveOptions.BeforeCommit.
func (db *DB) saveAttempt(parent context.Context, run *Run, retry bool, beforeCommit func()) (err error) {
	ctx := parent
	if limit := db.connectTimeout + db.statementTimeout; db.connectTimeout > 0 && db.statementTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, limit)
		defer cancel()
		defer func() {
			if err != nil && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("save run %s: the database did not answer within %s (connect timeout %s + statement timeout %s): %w",
					run.ID, limit, db.connectTimeout, db.statementTimeout, context.DeadlineExceeded)
			}
		}()
	}
	if retry {
		exists, err := db.NewSelect().Model((*Run)(nil)).Where("id = ?", run.ID).Exists(ctx)
		if err != nil {
			return fmt.Errorf("save run %s: %w", run.ID, err)
		}
		if exists {
			return nil
		}
	}
	return db.insertRun(ctx, run, beforeCommit)
}

// Transient reports whether err is worth retrying: the server was
// unreachable, restarting or busy, or the transaction lost a race.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			strings.HasPrefix(pgErr.Code, "57P"), // admin or crash shutdown, cannot connect now
			pgErr.Code == "40001",                // serialization failure
			pgErr.Code == "40P01",                // deadlock detected
			pgErr.Code == "55P03",                // lock not available (lock_timeout)
			pgErr.Code == "57014",                // statement timeout
			pgErr.Code == "53300":                // too many connections
			return true
		}
		return false
	}
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	switch {
	case errors.As(err, &connectErr),
		errors.As(err, &netErr),
		errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), pgconn.SafeToRetry(err), pgconn.Timeout(err):
		return true
	}
	msg := err.Error()
	for _, s := range []string{"SQLITE_BUSY", "SQLITE_LOCKED", "database is locked", "conn closed", "connection refused", "connection reset"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Bounded is ctx limited to the connect timeout plus the statement timeout
// (ctx itself when either is unlimited): for a look-up that must give up,
// not hang, when a server stops answering without closing anything.
func (db *DB) Bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if db.connectTimeout <= 0 || db.statementTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, db.connectTimeout+db.statementTimeout)
}

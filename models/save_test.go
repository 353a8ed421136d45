package models_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

func TestTransient(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("insert run: constraint violated"), false},
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "40001"}), true},  // serialization failure
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "40P01"}), true},  // deadlock
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "55P03"}), true},  // lock timeout
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "57P01"}), true},  // admin shutdown
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "23505"}), false}, // unique violation
		{fmt.Errorf("save: %w", &pgconn.PgError{Code: "42P01"}), false}, // missing table
		{fmt.Errorf("dial: %w", syscall.ECONNREFUSED), true},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{driver.ErrBadConn, true},
		{context.DeadlineExceeded, true},
		{errors.New("database is locked (5) (SQLITE_BUSY)"), true},
		{errors.New("database or disk is full (13) (SQLITE_FULL)"), false},
	} {
		if got := models.Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestSaveRun_RetriesWhileSQLiteIsBusy holds SQLite's write lock from
// another connection for a while: the save fails with SQLITE_BUSY after
// the statement timeout, is retried, and succeeds once the lock is gone.
func TestSaveRun_RetriesWhileSQLiteIsBusy(t *testing.T) {
	ctx := context.Background()
	url := testdb.SQLiteURL(t)
	db, err := models.Open(ctx, url, models.OpenOptions{StatementTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	holder, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(400 * time.Millisecond)
		conn.ExecContext(ctx, "ROLLBACK")
		close(released)
	}()
	var retries []error
	run := sampleRun("busy", time.Now())
	err = db.SaveRun(ctx, run, models.SaveOptions{MaxWait: 30 * time.Second, OnRetry: func(_ int, _ time.Duration, err error) {
		retries = append(retries, err)
	}})
	<-released
	if err != nil {
		t.Fatalf("SaveRun: %v", err)
	}
	if len(retries) == 0 {
		t.Fatal("the save never met the lock: no retry")
	}
	if !models.Transient(retries[0]) {
		t.Errorf("retried a non-transient error: %v", retries[0])
	}
	got, err := db.GetRun(ctx, run.ID)
	if err != nil || len(got.Cases) != len(run.Cases) {
		t.Fatalf("saved run: %v", err)
	}
	t.Logf("saved after %d retries; first error: %v", len(retries), retries[0])
}

// TestSaveRun_GivesUpOnPermanentErrors: a missing table is not retried.
func TestSaveRun_GivesUpOnPermanentErrors(t *testing.T) {
	ctx := context.Background()
	db, err := models.Open(ctx, testdb.SQLiteURL(t), models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	retried := false
	err = db.SaveRun(ctx, sampleRun("none", time.Now()), models.SaveOptions{OnRetry: func(int, time.Duration, error) { retried = true }})
	if err == nil || retried {
		t.Errorf("SaveRun into a database without tables: err %v, retried %v; want an error at once", err, retried)
	}
}

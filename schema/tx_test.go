package schema

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestInImmediateTx_FailedCommitLeavesNoOpenTransaction(t *testing.T) {
	ctx := context.Background()
	db, err := models.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "tx.sqlite3"), models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range []string{
		"CREATE TABLE parent (id integer PRIMARY KEY)",
		"CREATE TABLE child (id integer PRIMARY KEY, parent_id integer REFERENCES parent (id))",
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}

	// A deferred foreign key is checked at COMMIT, which then fails and,
	// in SQLite, leaves the transaction open.
	err = inImmediateTx(ctx, conn, func(ctx context.Context) error {
		if _, err := conn.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
			return err
		}
		_, err := conn.ExecContext(ctx, "INSERT INTO child (parent_id) VALUES (42)")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "commit") {
		t.Fatalf("err = %v, want the failed commit", err)
	}

	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatalf("the connection still holds a transaction after the failed commit: %v", err)
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM child").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if got, want := n, 0; got != want {
		t.Errorf("child rows = %d, want %d (the failed transaction rolled back)", got, want)
	}
}

package models_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestOpen_SQLitePathIsDirectory checks that a SQLite URL naming a
// directory is refused with that fact, read-only or not, instead of
// SQLite's "disk I/O error (10)" or "unable to open database file (14)".
func TestOpen_SQLitePathIsDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, readOnly := range []bool{true, false} {
		db, err := models.Open(context.Background(), "sqlite:"+dir, models.OpenOptions{ReadOnly: readOnly})
		if db != nil {
			db.Close()
		}
		want := fmt.Sprintf("open database %q: is a directory, not a database file (give a file path, for example %s)", dir, filepath.Join(dir, "evaluations.sqlite3"))
		if err == nil || err.Error() != want {
			t.Errorf("Open(read-only %v): %v, want %q", readOnly, err, want)
		}
	}
}

// TestOpen_MissingSQLiteFile checks that a read-only open names the missing
// file instead of SQLite's "unable to open database file (14)" and never
// creates it, while a writable open creates it; a writable open in a
// directory that does not exist is refused with the directory, which is
// not created.
func TestOpen_MissingSQLiteFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		readOnly bool
		wantErr  bool
		sub      string
	}{
		{"read-only", true, true, ""},
		{"writable", false, false, ""},
		{"writable in a missing directory", false, true, "sub"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.sub, "nonexist.sqlite3")
			db, err := models.Open(context.Background(), "sqlite:"+path, models.OpenOptions{ReadOnly: tc.readOnly})
			if db != nil {
				db.Close()
			}
			if got := err != nil; got != tc.wantErr {
				t.Fatalf("Open: %v, want an error: %v", err, tc.wantErr)
			}
			_, statErr := os.Stat(path)
			if tc.sub != "" {
				if !errors.Is(err, models.ErrNoSQLiteDirectory) {
					t.Errorf("Open: %v, want ErrNoSQLiteDirectory", err)
				}
				if _, err := os.Stat(filepath.Dir(path)); err == nil {
					t.Errorf("a writable open created the directory %s", filepath.Dir(path))
				}
			} else if tc.wantErr {
				if !errors.Is(err, models.ErrNoSQLiteDatabase) || err.Error() != "no SQLite database at "+path {
					t.Errorf("Open: %q, want %q", err, "no SQLite database at "+path)
				}
				if statErr == nil {
					t.Errorf("a read-only open created %s", path)
				}
			} else if statErr != nil {
				t.Errorf("a writable open did not create the file: %v", statErr)
			}
		})
	}
}

package models_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"agentevals/models"
)

// TestOpen_MissingSQLiteFile checks that a read-only open names the missing
// file instead of SQLite's "unable to open database file (14)" and never
// creates it, while a writable open creates it.
func TestOpen_MissingSQLiteFile(t *testing.T) {
	for _, tc := range []struct {
		name     string
		readOnly bool
		wantErr  bool
	}{
		{"read-only", true, true},
		{"writable", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "nonexist.sqlite3")
			db, err := models.Open(context.Background(), "sqlite:"+path, models.OpenOptions{ReadOnly: tc.readOnly})
			if db != nil {
				db.Close()
			}
			if got := err != nil; got != tc.wantErr {
				t.Fatalf("Open: %v, want an error: %v", err, tc.wantErr)
			}
			_, statErr := os.Stat(path)
			if tc.wantErr {
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

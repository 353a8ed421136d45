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

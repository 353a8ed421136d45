package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  []byte // nil: no file before
		perm fs.FileMode
	}{
		{name: "new file", perm: 0o644},
		{name: "replaces", old: []byte("old content, longer than the new"), perm: 0o644},
		{name: "private", old: []byte("old"), perm: 0o600},
		{name: "empty data", perm: 0o644},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.json")
			if tc.old != nil {
				if err := os.WriteFile(path, tc.old, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			want := []byte(`{"new": true}`)
			if tc.name == "empty data" {
				want = []byte{}
			}
			if err := Write(path, want, tc.perm); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != string(want) {
				t.Fatalf("file holds %q, %v; want %q", got, err, want)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != tc.perm {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.perm)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only the file", len(entries))
			}
		})
	}
}

func TestWrite_failures(t *testing.T) {
	dir := t.TempDir()
	var pe *fs.PathError
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: error %v, want a *fs.PathError wrapping fs.ErrNotExist", err)
	}
	// path is a non-empty directory: the rename fails, the temporary file goes
	target := filepath.Join(dir, "d")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var le *os.LinkError
	if err := Write(target, []byte("x"), 0o644); !errors.As(err, &le) {
		t.Errorf("rename over a directory: error %v, want an *os.LinkError", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want no temporary file left", len(entries))
	}
}

func TestCreateNew(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exists  bool
		perm    fs.FileMode
		wantErr error
	}{
		{name: "new file", perm: 0o644},
		{name: "executable", perm: 0o755},
		{name: "existing file is kept", exists: true, perm: 0o644, wantErr: fs.ErrExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer syscall.Umask(syscall.Umask(0o022)) // perm is less the umask
			path := filepath.Join(t.TempDir(), "f")
			if tc.exists {
				if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := CreateNew(path, []byte("new"), tc.perm)
			got, _ := os.ReadFile(path)
			if tc.wantErr != nil {
				var pe *fs.PathError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &pe) {
					t.Fatalf("error %v, want a *fs.PathError wrapping %v", err, tc.wantErr)
				}
				if string(got) != "keep" {
					t.Errorf("existing file overwritten: %q", got)
				}
				return
			}
			if err != nil || string(got) != "new" {
				t.Fatalf("CreateNew: %v; file holds %q", err, got)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != tc.perm {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.perm)
			}
		})
	}
}

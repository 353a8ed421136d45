package bounds_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentevals-go/agentevals/bounds"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		limit      int64
		want       string // content, or the error's text
		isLimit    bool
	}{
		{"under the limit", file("a", "hello"), 10, "hello", false},
		{"at the limit", file("b", "0123456789"), 10, "0123456789", false},
		{"over the limit, refused from its size", file("c", "0123456789x"), 10, "11 bytes is too large (limit: size 10 bytes)", true},
		{"empty", file("d", ""), 10, "", false},
		{"a device that never ends", "/dev/zero", 1 << 16, "input is larger than 65536 bytes (limit: size 65536 bytes)", true},
		{"a FIFO nobody writes to reads as empty", fifo, 10, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := bounds.ReadFile(tc.path, tc.limit)
			if tc.isLimit {
				if !bounds.IsLimit(err) || err.Error() != tc.want {
					t.Errorf("ReadFile = %q, %v; want the limit error %q", got, err, tc.want)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("ReadFile = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := bounds.ReadFile(filepath.Join(dir, "missing"), 10); err == nil || bounds.IsLimit(err) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want a not-exist error", err)
	}
}

func TestReadAllAndNewReader(t *testing.T) {
	for _, tc := range []struct {
		in      string
		limit   int64
		wantErr bool
	}{{"abc", 3, false}, {"abcd", 3, true}, {"", 0, false}, {"a", 0, true}} {
		got, err := bounds.ReadAll(strings.NewReader(tc.in), tc.limit)
		if (err != nil) != tc.wantErr || (!tc.wantErr && string(got) != tc.in) || (tc.wantErr && !bounds.IsLimit(err)) {
			t.Errorf("ReadAll(%q, %d) = %q, %v", tc.in, tc.limit, got, err)
		}
	}
	sc := bufio.NewScanner(bounds.NewReader(strings.NewReader(strings.Repeat("line\n", 100)), 52))
	lines := 0
	for sc.Scan() {
		lines++
	}
	// 10 whole lines and the cut "li" (a scanner hands over what it has
	// before it reports the error)
	if !bounds.IsLimit(sc.Err()) || lines != 11 {
		t.Errorf("a scanner over NewReader(500 bytes, 52) read %d lines and ended with %v; want 11 and the limit", lines, sc.Err())
	}
}

func TestCheckEncoding(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", ""},
		{"é ok", ""},
		{"ab\xffcd", "byte 2: invalid UTF-8 byte 0xff (limit: encoding UTF-8)"},
		{"\xed\xa0\x80", "byte 0: invalid UTF-8 byte 0xed (limit: encoding UTF-8)"}, // a surrogate as UTF-8
	} {
		got := ""
		if err := bounds.CheckEncoding([]byte(tc.in)); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckEncoding(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

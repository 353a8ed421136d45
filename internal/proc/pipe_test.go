package proc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPipe: evalrun's end of the pipe is non-blocking and polled (it
// takes a deadline), the child's end is blocking and not polled, and data
// goes from the write end to the read end either way round.
func TestPipe(t *testing.T) {
	for _, parentReads := range []bool{true, false} {
		parent, child, err := Pipe(parentReads)
		if err != nil {
			t.Fatal(err)
		}
		if err := parent.SetDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("parentReads=%v: evalrun's end takes no deadline: %v", parentReads, err)
		}
		if err := child.SetDeadline(time.Now().Add(time.Minute)); !errors.Is(err, os.ErrNoDeadline) {
			t.Errorf("parentReads=%v: the child's end is polled (SetDeadline: %v)", parentReads, err)
		}
		for _, f := range []*os.File{parent, child} {
			if flags := fcntl(t, f, unix.F_GETFD); flags&unix.FD_CLOEXEC == 0 {
				t.Errorf("parentReads=%v: %s is not close-on-exec (%#x)", parentReads, f.Name(), flags)
			}
		}
		if flags := fcntl(t, parent, unix.F_GETFL); flags&syscall.O_NONBLOCK == 0 {
			t.Errorf("parentReads=%v: evalrun's end is blocking (%#x)", parentReads, flags)
		}
		if flags := fcntl(t, child, unix.F_GETFL); flags&syscall.O_NONBLOCK != 0 {
			t.Errorf("parentReads=%v: the child's end is non-blocking (%#x)", parentReads, flags)
		}
		r, w := parent, child
		if !parentReads {
			r, w = child, parent
		}
		go func() {
			_, _ = w.Write([]byte("question\n"))
			_ = w.Close()
		}()
		got, err := io.ReadAll(r)
		if err != nil || string(got) != "question\n" {
			t.Errorf("parentReads=%v: read %q, %v", parentReads, got, err)
		}
		_ = r.Close()
	}
}

// fcntl reads f's descriptor or status flags without Fd (which would set
// a polled file blocking).
func fcntl(t *testing.T, f *os.File, cmd int) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	var ferr error
	if err := rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, cmd, 0) }); err != nil || ferr != nil {
		t.Fatal(err, ferr)
	}
	return flags
}

// BenchmarkPipe is one stream of a command agent's case as exec sees it:
// the pipe made, the child's end handed over (Fd) and closed after the
// start, evalrun's end closed at the end, with os.Pipe and with Pipe.
func BenchmarkPipe(b *testing.B) {
	for _, tc := range []struct {
		name string
		pipe func() (parent, child *os.File, err error)
	}{
		{"os.Pipe", func() (*os.File, *os.File, error) { return os.Pipe() }},
		{"proc.Pipe", func() (*os.File, *os.File, error) { return Pipe(true) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				parent, child, err := tc.pipe()
				if err != nil {
					b.Fatal(err)
				}
				_ = child.Fd()
				_ = child.Close()
				_ = parent.Close()
			}
		})
	}
}

// TestFilledPipe: an input up to PIPE_BUF is in the pipe, its write end
// closed (the reader sees the input, then end of file); a longer one is
// refused and nothing is made.
func TestFilledPipe(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"empty", 0, true},
		{"a line", 10, true},
		{"PIPE_BUF", pipeBuf, true},
		{"over", pipeBuf + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := bytes.Repeat([]byte("q"), tc.n)
			r, ok, err := FilledPipe(in)
			if err != nil || ok != tc.ok {
				t.Fatalf("FilledPipe(%d bytes) = ok %v, %v; want ok %v", tc.n, ok, err, tc.ok)
			}
			if !ok {
				if r != nil {
					t.Fatalf("refused input, yet a pipe: %v", r)
				}
				return
			}
			defer r.Close()
			if err := r.SetDeadline(time.Now().Add(time.Minute)); !errors.Is(err, os.ErrNoDeadline) {
				t.Errorf("the child's end is polled (SetDeadline: %v)", err)
			}
			if flags := fcntl(t, r, unix.F_GETFD); flags&unix.FD_CLOEXEC == 0 {
				t.Errorf("not close-on-exec (%#x)", flags)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("read %d bytes, %v; want the %d written", len(got), err, len(in))
			}
		})
	}
}

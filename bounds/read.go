package bounds

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"unicode/utf8"
)

// ReadAll reads r to its end, but never more than limit bytes: a stream
// that goes on (/dev/zero, a FIFO fed forever) is an *Error naming the
// limit once limit+1 bytes have arrived, so memory stays bounded by limit
// whatever the source.
//
// The bytes are read in chunks (doubling up to 1 MiB) that are joined
// once the end is reached, so a source that breaks the limit costs at most
// limit bytes of memory, and one that keeps to it twice its size at the
// join (a growing slice would copy itself over and over).
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	var chunks [][]byte
	var total int64
	size := int64(512)
	for {
		buf := make([]byte, min(size, limit-total+1))
		n, err := io.ReadFull(r, buf)
		total += int64(n)
		if total > limit {
			return nil, sizeError(limit, "input is larger than %d bytes", limit)
		}
		chunks = append(chunks, buf[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, 1<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}

// Open opens path for reading. A FIFO is opened without waiting for a
// writer (a FIFO nobody writes to reads as empty instead of hanging the
// command); everything else opens as os.Open does.
func Open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// ReadFile reads the file (or device, or FIFO) at path with ReadAll's
// bound. A regular file larger than limit is refused from its size,
// before a byte is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return ReadAll(f, limit)
	}
	if st.Size() > limit {
		return nil, sizeError(limit, "%d bytes is too large", st.Size())
	}
	// A regular file is read into a buffer of its size (ReadAll's doubling
	// would hold up to twice that); one that grows meanwhile still stops at
	// the limit.
	buf := make([]byte, st.Size()+1)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF: // shorter than its size, or exactly it
		return buf[:n], nil
	case err != nil:
		return nil, err
	}
	rest, err := ReadAll(f, limit-int64(n))
	if err != nil {
		if IsLimit(err) {
			return nil, sizeError(limit, "input is larger than %d bytes", limit)
		}
		return nil, err
	}
	return append(buf, rest...), nil
}

// ReadJSON reads path with ReadFile's bound at MaxBytes and checks the
// bytes with CheckJSON and CheckEncoding, so what it returns is at most
// MaxBytes, nested at most MaxDepth deep and UTF-8.
func (l Limits) ReadJSON(path string) ([]byte, error) {
	data, err := ReadFile(path, l.max())
	if err != nil {
		return nil, err
	}
	if err := l.CheckJSON(data); err != nil {
		return nil, err
	}
	if err := CheckEncoding(data); err != nil {
		return nil, err
	}
	return data, nil
}

// NewReader wraps r so that reading more than limit bytes from it fails
// with an *Error naming the limit (for line-by-line readers of JSONL
// files, whose lines are bounded by the scanner but whose count is not).
func NewReader(r io.Reader, limit int64) io.Reader {
	return &limitedReader{r: r, left: limit, limit: limit}
}

type limitedReader struct {
	r           io.Reader
	left, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, sizeError(l.limit, "input is larger than %d bytes", l.limit)
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n - int(-l.left), sizeError(l.limit, "input is larger than %d bytes", l.limit)
	}
	return n, err
}

// CheckEncoding returns an *Error when data is not UTF-8, naming the
// offset of the first invalid byte.
func CheckEncoding(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return &Error{Path: fmt.Sprintf("byte %d", off), Limit: "encoding UTF-8",
		Message: fmt.Sprintf("invalid UTF-8 byte 0x%02x", data[off])}
}

// IsLimit reports whether err is (or wraps) an *Error: the input broke a
// limit, a permanent problem of the input rather than of the machine.
func IsLimit(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

func (l Limits) max() int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return DefaultMaxBytes
}

func sizeError(limit int64, format string, args ...any) error {
	return &Error{Limit: fmt.Sprintf("size %d bytes", limit), Message: fmt.Sprintf(format, args...)}
}

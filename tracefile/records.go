package tracefile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/agentevals-go/agentevals/bounds"
)

// Magic numbers of the compressed formats a file may be wrapped in.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// record is one export request as stored: its bytes and where they were.
type record struct {
	data  []byte
	json  bool
	where string // "line 3", "record 2 (offset 1234)"
}

// records splits a (decompressed) stream into export requests. A file is
// JSON lines when its first byte that is not white space is '{', else
// 4-byte big-endian length-prefixed messages, each JSON or protobuf and
// each possibly a zstd frame of its own (the file exporter with
// compression and without native stream compression).
type records struct {
	path  string
	limit Limits
	br    *bufio.Reader
	lines *bufio.Scanner // JSON lines; nil for length-prefixed messages
	n     int            // records read
	off   int64          // offset of the next length-prefixed record
	buf   []byte
	zdec  *zstd.Decoder // per-record frames, made on first use
	close []func()
}

// newRecords wraps r, undoing gzip or zstd stream compression found by
// its magic bytes; the decompressed stream may not exceed
// MaxDecompressedBytes.
func newRecords(path string, r io.Reader, l Limits) (*records, error) {
	rs := &records{path: path, limit: l}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, rs.fail("gzip header", err)
		}
		rs.close = append(rs.close, func() { _ = zr.Close() })
		br = bufio.NewReaderSize(bounds.NewReader(named{zr, "gzip"}, l.MaxDecompressedBytes), 64<<10)
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(br, zstdOptions(l)...)
		if err != nil {
			return nil, rs.fail("zstd header", err)
		}
		rs.close = append(rs.close, zr.Close)
		br = bufio.NewReaderSize(bounds.NewReader(named{zr, "zstd"}, l.MaxDecompressedBytes), 64<<10)
	}
	rs.br = br
	first, err := firstByte(br)
	if err != nil {
		rs.Close()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no spans: the file is empty or white space", path)
		}
		return nil, rs.fail("start", err)
	}
	if first == '{' {
		rs.lines = bufio.NewScanner(br)
		rs.lines.Buffer(make([]byte, 0, min(64<<10, l.MaxRecordBytes+1)), l.MaxRecordBytes+1)
	}
	return rs, nil
}

// named prefixes a decompressor's errors with its format.
type named struct {
	r    io.Reader
	name string
}

func (n named) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", n.name, err)
	}
	return k, err
}

func zstdOptions(l Limits) []zstd.DOption {
	return []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(uint64(l.MaxWindowBytes)), zstd.WithDecoderMaxMemory(uint64(l.MaxDecompressedBytes))}
}

// firstByte peeks the first byte that is not JSON white space.
func firstByte(br *bufio.Reader) (byte, error) {
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		switch c := b[i-1]; c {
		case ' ', '\t', '\r', '\n':
			if i >= 4096 {
				return c, nil
			}
		default:
			return c, nil
		}
	}
}

// Close releases the decompressors.
func (rs *records) Close() {
	for _, f := range rs.close {
		f()
	}
	rs.close = nil
	if rs.zdec != nil {
		rs.zdec.Close()
		rs.zdec = nil
	}
}

// fail names the file and where in it reading stopped.
func (rs *records) fail(where string, err error) error {
	if bounds.IsLimit(err) {
		return fmt.Errorf("%s: %s: the decompressed file is larger than %d bytes (MaxDecompressedBytes): %w", rs.path, where, rs.limit.MaxDecompressedBytes, err)
	}
	return fmt.Errorf("%s: %s: %w", rs.path, where, err)
}

// next returns the next record, io.EOF after the last. The returned bytes
// are valid until the next call.
func (rs *records) next() (record, error) {
	if rs.lines != nil {
		return rs.nextLine()
	}
	return rs.nextMessage()
}

func (rs *records) nextLine() (record, error) {
	for rs.lines.Scan() {
		rs.n++
		line := bytes.TrimSpace(rs.lines.Bytes())
		if len(line) == 0 {
			continue
		}
		return record{data: line, json: true, where: fmt.Sprintf("line %d", rs.n)}, nil
	}
	err := rs.lines.Err()
	switch {
	case err == nil:
		return record{}, io.EOF
	case errors.Is(err, bufio.ErrTooLong):
		return record{}, fmt.Errorf("%s: line %d: %w", rs.path, rs.n+1,
			&bounds.Error{Limit: "MaxRecordBytes", Message: fmt.Sprintf("longer than %d bytes", rs.limit.MaxRecordBytes)})
	}
	return record{}, rs.fail(fmt.Sprintf("line %d", rs.n+1), err)
}

func (rs *records) nextMessage() (record, error) {
	var size [4]byte
	n, err := io.ReadFull(rs.br, size[:])
	switch {
	case err == io.EOF:
		return record{}, io.EOF
	case err == io.ErrUnexpectedEOF:
		return record{}, fmt.Errorf("%s: record %d (offset %d): truncated: %d of the 4 length bytes", rs.path, rs.n+1, rs.off, n)
	case err != nil:
		return record{}, rs.fail(fmt.Sprintf("record %d (offset %d)", rs.n+1, rs.off), err)
	}
	rs.n++
	where := fmt.Sprintf("record %d (offset %d)", rs.n, rs.off)
	want := int64(binary.BigEndian.Uint32(size[:]))
	if want > int64(rs.limit.MaxRecordBytes) {
		return record{}, fmt.Errorf("%s: %s: declares %d bytes, more than %d (MaxRecordBytes); not an OTLP file export of traces?", rs.path, where, want, rs.limit.MaxRecordBytes)
	}
	if int64(cap(rs.buf)) < want {
		rs.buf = make([]byte, want)
	}
	data := rs.buf[:want]
	if got, err := io.ReadFull(rs.br, data); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return record{}, fmt.Errorf("%s: %s: truncated: declares %d bytes, the file ends after %d", rs.path, where, want, got)
		}
		return record{}, rs.fail(where, err)
	}
	rs.off += 4 + want
	if bytes.HasPrefix(data, zstdMagic) {
		if data, err = rs.unzstd(data, where); err != nil {
			return record{}, err
		}
	}
	return record{data: data, json: len(data) > 0 && data[0] == '{', where: where}, nil
}

// unzstd decompresses one record's own zstd frame within MaxRecordBytes.
func (rs *records) unzstd(data []byte, where string) ([]byte, error) {
	if rs.zdec == nil {
		d, err := zstd.NewReader(nil, zstdOptions(rs.limit)...)
		if err != nil {
			return nil, rs.fail(where, err)
		}
		rs.zdec = d
	}
	if err := rs.zdec.Reset(bytes.NewReader(data)); err != nil {
		return nil, rs.fail(where+": zstd", err)
	}
	out, err := bounds.ReadAll(rs.zdec, int64(rs.limit.MaxRecordBytes))
	if bounds.IsLimit(err) {
		return nil, fmt.Errorf("%s: %s: decompresses to more than %d bytes (MaxRecordBytes): %w", rs.path, where, rs.limit.MaxRecordBytes, err)
	}
	if err != nil {
		return nil, rs.fail(where+": zstd", err)
	}
	return out, nil
}

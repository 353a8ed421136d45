package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// rowWriter writes the rows of one table as the file holds them: what
// indented(encodeRow(rec), "  ") gives, without the map between. The
// columns are taken in name order (encoding/json's order for a Row's keys),
// each value is json.Marshal'ed as encodeRow does, and the compact object is
// indented once. A row is one Marshal per column and one pass over its text,
// where the map took a sort by reflection and a second compaction.
type rowWriter struct {
	cols []column // in name order
	// position is where the case_position key sorts among cols (-1: none).
	position int
	compact  []byte
	out      bytes.Buffer
}

// newRowWriter orders cols by name; withPosition adds the metric rows'
// case_position key in its place.
func newRowWriter(cols []column, withPosition bool) *rowWriter {
	sorted := slices.Clone(cols)
	slices.SortFunc(sorted, func(a, b column) int { return strings.Compare(a.name, b.name) })
	w := &rowWriter{cols: sorted, position: -1}
	if withPosition {
		w.position, _ = slices.BinarySearchFunc(sorted, caseKey, func(c column, k string) int { return strings.Compare(c.name, k) })
	}
	return w
}

// caseKey is the key that stands for a metric's case_result_id in a file.
const caseKey = "case_position"

// row returns rec's row (rec a pointer to a models record) indented under
// prefix, valid until the next call; position is the metric's case position.
func (w *rowWriter) row(rec any, position int, prefix string) ([]byte, error) {
	v := reflect.ValueOf(rec).Elem()
	b := append(w.compact[:0], '{')
	n := 0
	key := func(name string) {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	for i, c := range w.cols {
		if i == w.position {
			key(caseKey)
			b = strconv.AppendInt(b, int64(position), 10)
		}
		f := v.Field(c.index)
		if f.Type() == jsonType && f.IsNil() {
			continue
		}
		val, err := json.Marshal(f.Interface())
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.name, err)
		}
		key(c.name)
		b = append(b, val...)
	}
	if w.position == len(w.cols) {
		key(caseKey)
		b = strconv.AppendInt(b, int64(position), 10)
	}
	b = append(b, '}')
	w.compact = b
	w.out.Reset()
	if err := json.Indent(&w.out, b, prefix, " "); err != nil {
		return nil, err
	}
	return w.out.Bytes(), nil
}

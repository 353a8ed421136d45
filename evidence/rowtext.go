package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// A row of the file is what indented(encodeRow(rec), prefix) writes: the
// columns in name order, each value compacted with HTML characters escaped
// (as json.Marshal writes a JSON column) and indented one space deeper.
// rowText writes the same bytes reading a JSON column once for the
// escaping and once for the indentation, instead of compacting it twice
// and indenting the whole row again: a traced case's response_metadata is
// most of a file.

// rowText is the text of one row: rec's columns (a pointer to a models
// record) and the extra members, under prefix.
func rowText(buf *bytes.Buffer, rec any, cols []column, prefix string, extra map[string]json.RawMessage) error {
	v := reflect.ValueOf(rec).Elem()
	type member struct {
		name string
		val  []byte
		raw  bool // a JSON column's own text, not yet compacted
	}
	members := make([]member, 0, len(cols)+len(extra))
	for _, c := range cols {
		f := v.Field(c.index)
		if f.Type() == jsonType {
			if f.IsNil() {
				continue
			}
			members = append(members, member{c.name, bytes.TrimRight(f.Interface().(models.JSON), " \t\r\n"), true})
			continue
		}
		b, err := json.Marshal(f.Interface())
		if err != nil {
			return fmt.Errorf("column %s: %w", c.name, err)
		}
		members = append(members, member{name: c.name, val: b})
	}
	for k, b := range extra {
		members = append(members, member{name: k, val: b})
	}
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	if len(members) == 0 {
		buf.WriteString("{}")
		return nil
	}
	inner := prefix + " "
	var escaped bytes.Buffer
	buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		buf.WriteString(inner)
		key, err := json.Marshal(m.name)
		if err != nil {
			return err
		}
		buf.Write(key)
		buf.WriteString(": ")
		val := m.val
		if m.raw {
			escaped.Reset()
			json.HTMLEscape(&escaped, val)
			val = escaped.Bytes()
		}
		if err := json.Indent(buf, val, inner, " "); err != nil {
			return fmt.Errorf("column %s: %w", m.name, err)
		}
	}
	buf.WriteByte('\n')
	buf.WriteString(prefix)
	buf.WriteByte('}')
	return nil
}

package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// encodeFields writes what encodeObject writes for a record that was not
// read (read nil), marshalling each field once: the record's fields that
// are set, with every key of extra the record does not write, in sorted
// key order, each value compacted as encoding/json writes a map of raw
// values.
func encodeFields(rec any, extra map[string]json.RawMessage) (JSON, error) {
	j, _, err := encodeFieldsAt(rec, extra, "")
	return j, err
}

// encodeFieldsAt is encodeFields that also says where the value of key at
// was written: j[at[0]:at[1]], or at[0] == at[1] == 0 when it was not.
func encodeFieldsAt(rec any, extra map[string]json.RawMessage, key string) (j JSON, at [2]int, err error) {
	v := reflect.ValueOf(rec).Elem()
	fields := objectFields(v.Type())
	vals := make(map[string]json.RawMessage, len(fields)+len(extra))
	for name, f := range fields {
		fv, ok := setField(v, f.index)
		if !ok || (f.omitEmpty && isEmpty(fv)) {
			continue
		}
		b, err := marshalField(fv)
		if err != nil {
			return nil, at, fmt.Errorf("encode json column: %w", err)
		}
		vals[name] = b
	}
	for k, raw := range extra {
		if _, ok := vals[k]; ok {
			continue
		}
		b, err := json.Marshal(raw)
		if err != nil {
			return nil, at, fmt.Errorf("encode json column: %w", err)
		}
		vals[k] = b
	}
	keys := make([]string, 0, len(vals))
	size := 2
	for k, b := range vals {
		keys = append(keys, k)
		size += len(k) + len(b) + 4
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.Grow(size)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, at, fmt.Errorf("encode json column: %w", err)
		}
		buf.Write(kb)
		buf.WriteByte(':')
		if k == key {
			at = [2]int{buf.Len(), buf.Len() + len(vals[k])}
		}
		buf.Write(vals[k])
	}
	buf.WriteByte('}')
	return JSON(buf.Bytes()), at, nil
}

// appender is a record that writes itself as json.Marshal writes it,
// without reflection.
type appender interface {
	appendJSON(b []byte) ([]byte, error)
	size() int
}

var _ appender = (*CaseTrace)(nil)

// marshalField writes a field's value as json.Marshal does.
func marshalField(fv reflect.Value) ([]byte, error) {
	if fv.Kind() == reflect.Pointer && !fv.IsNil() {
		if a, ok := fv.Interface().(appender); ok {
			return a.appendJSON(make([]byte, 0, a.size()))
		}
	}
	return json.Marshal(fv.Addr().Interface())
}

// setField is the field of v at index; false when an embedded struct
// pointer on the way is nil (encoding/json then writes none of its fields).
func setField(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// The summary and response_metadata columns hold JSON objects whose keys
// are partly declared by a record of this package (RunSummary,
// CaseMetadata) and partly anyone's: an agent's own metadata, keys of the
// Ruby gem or of another version. decodeObject and encodeObject read and
// write such an object through the record's json-tagged fields, keeping
// every other key as it was read.

// objectField is one json-tagged field of a record: its index path (through
// embedded struct pointers) and whether it is omitted when empty.
type objectField struct {
	index     []int
	omitEmpty bool
}

var objectFieldsCache sync.Map // reflect.Type -> map[string]objectField

// objectFields maps the JSON names of struct type t's fields to the
// fields; the fields of an embedded struct pointer count as t's own.
func objectFields(t reflect.Type) map[string]objectField {
	if f, ok := objectFieldsCache.Load(t); ok {
		return f.(map[string]objectField)
	}
	out := map[string]objectField{}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			index := append(append([]int{}, prefix...), i)
			if sf.Anonymous && sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct {
				walk(sf.Type.Elem(), index)
				continue
			}
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || name == "" || name == "-" {
				continue
			}
			out[name] = objectField{index: index, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")}
		}
	}
	walk(t, nil)
	objectFieldsCache.Store(t, out)
	return out
}

// decodeObject reads the JSON object j into the record rec points to, one
// key at a time. A key rec has no field for, or whose value does not fit
// its field (or is empty where the field is omitted when empty), is
// returned in extra as it was read; read holds the values of the keys that
// were read into fields (never nil after a successful read). SQL NULL and
// JSON null read as an empty object; any other value that is not an object
// is ErrNotJSONObject.
func decodeObject(j JSON, rec any) (extra, read map[string]json.RawMessage, err error) {
	if j.IsNull() {
		return nil, map[string]json.RawMessage{}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(j, &obj); err != nil || obj == nil {
		return nil, nil, fmt.Errorf("decode json column: %w", ErrNotJSONObject)
	}
	read = readFields(reflect.ValueOf(rec).Elem(), obj)
	for name := range read {
		delete(obj, name)
	}
	if len(obj) == 0 {
		obj = nil
	}
	return obj, read, nil
}

// readFields reads the keys of obj that fit the fields of the struct v and
// returns them.
func readFields(v reflect.Value, obj map[string]json.RawMessage) map[string]json.RawMessage {
	read := map[string]json.RawMessage{}
	for name, f := range objectFields(v.Type()) {
		raw, ok := obj[name]
		if !ok {
			continue
		}
		val := reflect.New(v.Type().FieldByIndex(f.index).Type)
		if json.Unmarshal(raw, val.Interface()) != nil || (f.omitEmpty && isEmpty(val.Elem())) {
			continue
		}
		fieldAt(v, f.index).Set(val.Elem())
		read[name] = raw
	}
	return read
}

// fieldAt is the field of v at index, allocating embedded struct pointers
// on the way.
func fieldAt(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// encodeObject writes the record rec points to, with the keys of extra, as
// one JSON object with its keys in sorted order (as encoding/json writes a
// map). A key the record writes wins over extra, except that for a record
// decodeObject read (read is not nil) a field still holding what it read
// is written as it was read, and a field left as it was because its value
// did not fit keeps that value from extra.
func encodeObject(rec any, extra, read map[string]json.RawMessage) (JSON, error) {
	typed, err := fieldsJSON(rec)
	if err != nil {
		return nil, err
	}
	var orig map[string]json.RawMessage
	if read != nil {
		fresh := reflect.New(reflect.TypeOf(rec).Elem())
		readFields(fresh.Elem(), read)
		if orig, err = fieldsJSON(fresh.Interface()); err != nil {
			return nil, err
		}
	}
	out := make(map[string]json.RawMessage, len(extra)+len(typed))
	for k, v := range extra {
		out[k] = v
	}
	for k, v := range typed {
		unchanged := read != nil && bytes.Equal(orig[k], v)
		switch {
		case unchanged && read[k] != nil:
			out[k] = read[k]
		case unchanged && extra[k] != nil:
		default:
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encode json column: %w", err)
	}
	return JSON(b), nil
}

// fieldsJSON is what encoding/json writes for the record's fields, by key.
func fieldsJSON(rec any) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encode json column: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("encode json column: %w", err)
	}
	return m, nil
}

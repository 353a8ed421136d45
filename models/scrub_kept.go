package models

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/agentevals-go/agentevals/sanitize"
)

// A traced case's response_metadata is mostly its trace record, encoded
// by SetMetadata from typed strings. Scrub checks those strings one by
// one (sanitize.Policy.CleanMember) instead of validating and scanning
// their JSON, and scans the rest of the column as JSON. When every string
// is clean the column is what Policy.JSON would return, byte for byte;
// when one is not, Scrub runs Policy.JSON over the whole column as
// before, so what is changed and how it is written does not depend on
// this shortcut.

// keptMetadataClean reports that Policy.JSON under p leaves the case's
// response_metadata as it is, known from the record it was encoded from;
// false when that is not known (no kept record, or the column has been
// replaced since) or not so.
func (c *CaseResult) keptMetadataClean(p sanitize.Policy) bool {
	s := c.kept()
	if s == nil || s.trace == nil {
		return false
	}
	if !(&cleaner{p: p}).record(reflect.ValueOf(s.trace).Elem()) {
		return false
	}
	// The rest of the object, the trace's value replaced by {}: the
	// object's other members are read as they would be in the whole.
	j := s.j
	rest := make([]byte, 0, len(j)-(s.traceAt[1]-s.traceAt[0])+2)
	rest = append(append(append(rest, j[:s.traceAt[0]]...), "{}"...), j[s.traceAt[1]:]...)
	_, rep := p.JSON(rest)
	return !rep.Changed()
}

// keptSpanActions reports whether the actions column holds the very
// text of the kept trace's span_actions, which keptMetadataClean found
// clean: the actions read from spans, stored twice.
func (c *CaseResult) keptSpanActions() bool {
	sa := c.scored.trace.SpanActions
	return len(sa) > 0 && bytes.Equal(c.Actions, sa)
}

// cleaner checks a record's strings as Policy.JSON reads the record's
// encoding/json document: member names, string members under their
// names, array elements, raw JSON values. A field of a kind it does not
// know makes the record not clean.
type cleaner struct {
	p    sanitize.Policy
	keys map[string]sanitize.Key // map keys, read once
}

// cleanPlans caches each struct type's plan (reflect.Type -> structPlan),
// as objectFieldsCache caches its fields: a plan never changes once made.
var cleanPlans sync.Map

// structPlan is how a struct type's fields are checked; not ok when
// encoding/json writes one in a way the plan does not know.
type structPlan struct {
	fields []fieldPlan
	ok     bool
}

// fieldPlan is how one field of a struct is checked.
type fieldPlan struct {
	index int
	key   sanitize.Key
	kind  fieldKind
}

type fieldKind uint8

const (
	kindSkip      fieldKind = iota // numbers and booleans: no text
	kindString                     // a string member
	kindStringPtr                  // *string
	kindStrings                    // []string: array elements
	kindStringMap                  // map[string]string: keys and members
	kindSpanAttrs                  // SpanAttrs: an object's keys and members
	kindJSON                       // JSON: a raw document
	kindStruct                     // a nested record
	kindStructPtr                  // *struct
	kindStructs                    // []struct
	kindUnknown                    // anything else: not checked, not clean
)

var (
	jsonType      = reflect.TypeOf(JSON(nil))
	spanAttrsType = reflect.TypeOf(SpanAttrs(nil))
	marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textType      = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// record checks the struct v.
func (c *cleaner) record(v reflect.Value) bool {
	plan := c.plan(v.Type())
	if !plan.ok {
		return false
	}
	for _, f := range plan.fields {
		fv := v.Field(f.index)
		switch f.kind {
		case kindString:
			if !c.p.CleanMember(f.key, fv.String()) {
				return false
			}
		case kindStringPtr:
			if !fv.IsNil() && !c.p.CleanMember(f.key, fv.Elem().String()) {
				return false
			}
		case kindStrings:
			for i := range fv.Len() {
				if !f.key.Clean() || !c.p.CleanString(fv.Index(i).String()) {
					return false
				}
			}
		case kindStringMap:
			if !f.key.Clean() || !c.stringMap(fv) {
				return false
			}
		case kindSpanAttrs:
			if !f.key.Clean() || !c.spanAttrs(fv.Interface().(SpanAttrs)) {
				return false
			}
		case kindJSON:
			if !c.rawJSON(f.key, JSON(fv.Bytes())) {
				return false
			}
		case kindStruct:
			if !f.key.Clean() || !c.record(fv) {
				return false
			}
		case kindStructPtr:
			if !fv.IsNil() && (!f.key.Clean() || !c.record(fv.Elem())) {
				return false
			}
		case kindStructs:
			for i := range fv.Len() {
				if !f.key.Clean() || !c.record(fv.Index(i)) {
					return false
				}
			}
		}
	}
	return true
}

// stringMap checks a map[string]string's names and members.
func (c *cleaner) stringMap(v reflect.Value) bool {
	m, ok := v.Interface().(map[string]string)
	if !ok {
		return false // a named map type: not read here
	}
	for name, s := range m {
		if !c.member(name, s) {
			return false
		}
	}
	return true
}

// spanAttrs checks a span's attribute names and values (a replaced one
// too: checking more than is written never makes a dirty record clean).
func (c *cleaner) spanAttrs(a SpanAttrs) bool {
	for _, at := range a {
		if !c.member(at.Key, at.Value) {
			return false
		}
	}
	return true
}

// member checks an object member written under a name the record does
// not fix.
func (c *cleaner) member(name, s string) bool {
	if c.keys == nil {
		c.keys = map[string]sanitize.Key{}
	}
	k, ok := c.keys[name]
	if !ok {
		k = sanitize.NewKey(name)
		c.keys[name] = k
	}
	return c.p.CleanMember(k, s)
}

// rawJSON checks a raw document written under key: clean when JSON keeps
// it and, since a string under a sensitive name is redacted whole, the
// name is not sensitive or the value is no string.
func (c *cleaner) rawJSON(key sanitize.Key, j JSON) bool {
	if j == nil {
		return true
	}
	if !key.Clean() || key.Sensitive() && strings.HasPrefix(strings.TrimLeft(string(j), " \t\r\n"), `"`) {
		return false
	}
	_, rep := c.p.JSON(j)
	return !rep.Changed()
}

// plan is how the fields of struct type t are checked.
func (c *cleaner) plan(t reflect.Type) structPlan {
	if p, ok := cleanPlans.Load(t); ok {
		return p.(structPlan)
	}
	p := structPlan{ok: !customJSON(t)}
	for i := 0; p.ok && i < t.NumField(); i++ {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
			continue
		case sf.Anonymous || strings.Contains(","+opts+",", ",string,"):
			p.ok = false // promoted fields and quoted numbers: not read here
			continue
		case !sf.IsExported():
			continue
		case name == "":
			name = sf.Name
		}
		switch k := kindOf(sf.Type); k {
		case kindUnknown:
			p.ok = false
		case kindSkip:
		default:
			p.fields = append(p.fields, fieldPlan{index: i, key: sanitize.NewKey(name), kind: k})
		}
	}
	cleanPlans.Store(t, p)
	return p
}

// kindOf is how a field of type t is checked.
func kindOf(t reflect.Type) fieldKind {
	switch t {
	case jsonType:
		return kindJSON
	case spanAttrsType:
		return kindSpanAttrs
	}
	if customJSON(t) {
		return kindUnknown
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return kindSkip
	case reflect.String:
		return kindString
	case reflect.Struct:
		return kindStruct
	case reflect.Pointer:
		switch e := t.Elem(); {
		case customJSON(e):
			return kindUnknown
		case e.Kind() == reflect.String:
			return kindStringPtr
		case e.Kind() == reflect.Struct:
			return kindStructPtr
		case kindOf(e) == kindSkip:
			return kindSkip
		}
	case reflect.Slice:
		switch e := t.Elem(); {
		case customJSON(e):
			return kindUnknown
		case e.Kind() == reflect.String:
			return kindStrings
		case e.Kind() == reflect.Struct:
			return kindStructs
		}
	case reflect.Map:
		if t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String && !customJSON(t.Key()) && !customJSON(t.Elem()) {
			return kindStringMap
		}
	}
	return kindUnknown
}

// customJSON reports whether encoding/json writes t through its own
// method rather than its fields.
func customJSON(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(marshalerType) || p.Implements(marshalerType) || t.Implements(textType) || p.Implements(textType)
}

package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Problem is one thing wrong with a suite: the file, the JSON path inside it
// ("$.questions[2].minimum_scores.exact") and what was expected.
type Problem struct {
	File    string
	Path    string
	Message string
}

// String formats the problem as "file: path: message".
func (p Problem) String() string {
	if p.Path == "" {
		return p.File + ": " + p.Message
	}
	return p.File + ": " + p.Path + ": " + p.Message
}

// ValidationError lists every problem found in a suite. Nothing runs and
// nothing is written when a suite has one.
type ValidationError struct {
	Problems []Problem
	// What names the kind of file in the message: "suite" when empty.
	What string
}

// Error lists every problem, one per line.
func (e *ValidationError) Error() string {
	what := e.What
	if what == "" {
		what = "suite"
	}
	if len(e.Problems) == 1 {
		return "load " + what + ": " + e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "load %s: %d problems:", what, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Problems collects the problems of one file.
type Problems struct {
	File string
	List *[]Problem
	// line is set when the data being checked is one line of file (a
	// golden-set line): file already names the line, positions add only a
	// column, and indent is how many bytes were trimmed from the line's start.
	line   bool
	indent int
}

func (p Problems) add(path, format string, args ...any) {
	*p.List = append(*p.List, Problem{File: p.File, Path: path, Message: fmt.Sprintf(format, args...)})
}

// object reads a JSON object whose keys must come from allowed; unknown keys
// are problems. It returns nil (and records a problem) when raw is not an object.
func (p Problems) object(path string, raw json.RawMessage, allowed ...string) map[string]json.RawMessage {
	return p.objectHint(path, raw, "", allowed...)
}

// objectHint is object whose unknown-key problems end with hint (when not
// "").
func (p Problems) objectHint(path string, raw json.RawMessage, hint string, allowed ...string) map[string]json.RawMessage {
	return p.objectKeyHint(path, raw, func(string) string { return hint }, allowed...)
}

// objectKeyHint is object whose problem about an unknown key ends with
// hint(key).
func (p Problems) objectKeyHint(path string, raw json.RawMessage, hint func(key string) string, allowed ...string) map[string]json.RawMessage {
	// An object of allowed keys only (every question of a valid suite)
	// needs neither the file order nor the duplicates members keeps: one
	// Unmarshal gives the same map (the last of a repeated key wins either
	// way) without a Token per key.
	var quick map[string]json.RawMessage
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &quick) == nil && allAllowed(quick, allowed) {
		return quick
	}
	ms, ok := members(raw)
	if !ok {
		p.add(path, "want an object, got %s", describe(raw))
		return nil
	}
	out := make(map[string]json.RawMessage, len(ms))
	for _, m := range ms {
		if !contains(allowed, m.key) {
			p.add(child(path, m.key), "unknown key (want one of %s)%s", strings.Join(allowed, ", "), hint(m.key))
			continue
		}
		out[m.key] = m.value
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// str reads a JSON string.
func (p Problems) str(path string, raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		p.add(path, "want a string, got %s", describe(raw))
		return "", false
	}
	return s, true
}

// oneOf reads a JSON string that must be one of values; the string is
// returned even when it is not, with the problem added.
func (p Problems) oneOf(path string, raw json.RawMessage, values ...string) string {
	s, ok := p.str(path, raw)
	if ok && !slices.Contains(values, s) {
		p.add(path, "want one of %s, got %q", strings.Join(values, ", "), s)
	}
	return s
}

// nonEmpty reads a JSON string that must not be blank.
func (p Problems) nonEmpty(path string, raw json.RawMessage) (string, bool) {
	s, ok := p.str(path, raw)
	if ok && strings.TrimSpace(s) == "" {
		p.add(path, "want a non-empty string")
		return "", false
	}
	return s, ok
}

// strings reads a JSON array of strings.
func (p Problems) strings(path string, raw json.RawMessage) ([]string, bool) {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add(path, "want an array of strings, got %s", describe(raw))
		return nil, false
	}
	out := make([]string, 0, len(items))
	ok := true
	for i, it := range items {
		s, good := p.str(Index(path, i), it)
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// threshold reads a number in [0,1].
func (p Problems) threshold(path string, raw json.RawMessage) (float64, bool) {
	var f float64
	if len(raw) == 0 || isNull(raw) || json.Unmarshal(raw, &f) != nil || raw[0] == '"' || math.IsNaN(f) || f < 0 || f > 1 {
		p.add(path, "want a number in [0,1], got %s", describe(raw))
		return 0, false
	}
	return f, true
}

// repeat reads a whole number of repeats in [1, MaxRepeat].
func (p Problems) repeat(path string, raw json.RawMessage) (int, bool) {
	var n int
	if len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &n) != nil || n < 1 || n > MaxRepeat {
		p.add(path, "%s, got %s", RepeatRule(), describe(raw))
		return 0, false
	}
	return n, true
}

// RepeatRule says what a repeat count must be, for messages.
func RepeatRule() string {
	return fmt.Sprintf("want a whole number of repeats from 1 to %d", MaxRepeat)
}

// describe names a JSON value for messages: its kind, and for scalars the
// value itself (shortened).
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	}
	s := string(raw)
	if utf8.RuneCountInString(s) > 40 {
		r := []rune(s)
		s = string(r[:40]) + "…"
	}
	return s
}

// errNotPortable marks values that JSON cannot carry between implementations.
var errNotPortable = errors.New("not JSON-portable")

// Portable walks a whole JSON document and records values that do not
// survive a trip through other JSON implementations (PostgreSQL jsonb, Ruby):
// duplicate object keys, numbers outside the float64 range, invalid UTF-8 and
// NUL characters (jsonb rejects \u0000).
func (p Problems) Portable(data []byte) bool {
	if !utf8.Valid(data) {
		p.add("$", "want UTF-8 text: %v", errNotPortable)
		return false
	}
	if off := sanitize.LoneSurrogate(data); off >= 0 {
		p.at(data, off, fmt.Sprintf("string holds the lone UTF-16 surrogate %s, which PostgreSQL jsonb refuses: write the character itself or a valid surrogate pair: %v", data[off:off+6], errNotPortable))
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	before := len(*p.List)
	if err := p.walk(dec, "$"); err != nil {
		p.syntax(data, err, "want valid JSON: %v")
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		p.syntax(data, err, "want a single JSON value, found more after it")
		return false
	}
	return len(*p.List) == before
}

// syntax records a JSON syntax problem at its position in the file
// ("suite.json:12:5: want valid JSON: invalid character …"), so an editor
// can jump to it. The decoder's own offsets are relative to the value it was
// reading, so the position comes from a full parse of data; format may use
// the error once (%v).
func (p Problems) syntax(data []byte, err error, format string) {
	var v any
	var se *json.SyntaxError
	if uerr := json.Unmarshal(data, &v); errors.As(uerr, &se) {
		err = uerr
	} else if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	msg := format
	if strings.Contains(format, "%v") {
		msg = fmt.Sprintf(format, err)
	}
	if se == nil {
		p.add("$", "%s", msg)
		return
	}
	idx := int(se.Offset) - 1 // Offset counts the bytes read, the bad one included
	if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "end of JSON input") {
		idx = len(data) // the value was cut short: point just past its end
	}
	p.at(data, idx, msg)
}

// at records a problem at data[idx], named by line and column ("file:12:5").
func (p Problems) at(data []byte, idx int, msg string) {
	line, col := position(data, max(0, min(idx, len(data))))
	file := fmt.Sprintf("%s:%d:%d", p.File, line, col)
	if p.line {
		file = fmt.Sprintf("%s:%d", p.File, p.indent+col)
	}
	*p.List = append(*p.List, Problem{File: file, Message: msg})
}

// position is the 1-based line and column (in characters) of data[idx].
func position(data []byte, idx int) (line, col int) {
	before := data[:idx]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[start:]) + 1
}

func (p Problems) walk(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key := kt.(string)
				kp := child(path, key)
				if seen[key] {
					p.add(kp, "duplicate key: %v", errNotPortable)
				}
				seen[key] = true
				if strings.ContainsRune(key, 0) {
					p.add(kp, "key contains a NUL character: %v", errNotPortable)
				}
				if err := p.walk(dec, kp); err != nil {
					return err
				}
			}
		} else {
			for i := 0; dec.More(); i++ {
				if err := p.walk(dec, Index(path, i)); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // closing delimiter
		return err
	case json.Number:
		if f, err := strconv.ParseFloat(t.String(), 64); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			p.add(path, "number %s is outside the float64 range: %v", t, errNotPortable)
		}
	case string:
		if strings.ContainsRune(t, 0) {
			p.add(path, "string contains a NUL character: %v", errNotPortable)
		}
	}
	return nil
}

// bounded records a problem when data is larger or nested deeper than
// bounds.Defaults() allow; the scan runs before any decoder, so a hostile
// file is refused in linear time and bounded memory.
func (p Problems) bounded(data []byte, yaml bool) bool {
	check := bounds.Defaults().CheckJSON
	if yaml {
		check = bounds.Defaults().CheckYAML
	}
	var be *bounds.Error
	if err := check(data); errors.As(err, &be) {
		path := be.Path
		if path == "" {
			path = "$"
		}
		p.add(path, "%s (limit: %s)", be.Message, be.Limit)
		return false
	}
	return true
}

// readBounded reads a file of at most max bytes (bounds.ReadFile: a
// larger file, a device or a FIFO that goes on is an error naming the
// limit, before it is read into memory).
func readBounded(path string, max int64) ([]byte, error) {
	return bounds.ReadFile(path, max)
}

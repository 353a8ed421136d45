// Package bounds refuses JSON and YAML input that is too large or nested
// too deeply, before any decoder sees it. A suite nested 100,000 levels
// deep once made validation run for 50 s and take 15 GB; the scan here
// reads the bytes once, keeps at most MaxDepth path segments, and so
// answers in time linear in the input and memory bounded by the limit.
//
// It imports nothing of this module, so judges, replay and models may use it.
package bounds

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits bound one input document.
type Limits struct {
	// MaxDepth is the deepest nesting of objects and arrays allowed (the
	// top-level value is depth 1 when it is an object or an array).
	MaxDepth int
	// MaxBytes is the largest document allowed.
	MaxBytes int64
}

// Defaults for suites, golden-set lines, fixtures and agent and judge
// replies. 128 levels is far deeper than any real question or answer and
// far below what costs memory.
const (
	DefaultMaxDepth = 128
	DefaultMaxBytes = 64 << 20
)

// Defaults are the limits used unless a caller has reason to differ (a
// function, not a variable: no package-level state to change by accident).
func Defaults() Limits { return Limits{MaxDepth: DefaultMaxDepth, MaxBytes: DefaultMaxBytes} }

// Error says which limit an input broke and where.
type Error struct {
	// Path is the JSON path ($.a[0].b) of the value that went too deep,
	// or "line N" for YAML; empty for the size limit.
	Path string
	// Limit names the broken limit and its value: "depth 128", "size 67108864 bytes".
	Limit string
	// Message says what was found.
	Message string
}

// Error formats the problem as "PATH: MESSAGE (limit LIMIT)".
func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s (limit: %s)", e.Message, e.Limit)
	}
	return fmt.Sprintf("%s: %s (limit: %s)", e.Path, e.Message, e.Limit)
}

func (l Limits) size(n int) error {
	if l.MaxBytes > 0 && int64(n) > l.MaxBytes {
		return &Error{Limit: fmt.Sprintf("size %d bytes", l.MaxBytes), Message: fmt.Sprintf("%d bytes is too large", n)}
	}
	return nil
}

func (l Limits) tooDeep(path string) error {
	return &Error{Path: path, Limit: fmt.Sprintf("depth %d", l.MaxDepth),
		Message: fmt.Sprintf("nested more than %d levels deep", l.MaxDepth)}
}

// frame is one open object or array of a JSON scan.
type frame struct {
	object bool
	key    string // object: the current key
	index  int    // array: the current index
}

// CheckJSON scans data (which need not be valid JSON: syntax is the
// decoder's business) and returns an *Error when it is larger than
// MaxBytes or nests objects and arrays deeper than MaxDepth.
func (l Limits) CheckJSON(data []byte) error {
	if err := l.size(len(data)); err != nil {
		return err
	}
	var stack []frame
	inString, escaped, readingKey := false, false, false
	var key []byte
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
				if readingKey {
					key = append(key, c)
				}
			case c == '\\':
				escaped = true
				if readingKey {
					key = append(key, c)
				}
			case c == '"':
				inString = false
				if readingKey {
					if s, err := strconv.Unquote(`"` + string(key) + `"`); err == nil {
						stack[len(stack)-1].key = s
					} else {
						stack[len(stack)-1].key = string(key)
					}
					readingKey = false
				}
			case readingKey && len(key) < 256:
				key = append(key, c)
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].key == "" {
				readingKey, key = true, key[:0]
			}
		case '{', '[':
			if l.MaxDepth > 0 && len(stack) >= l.MaxDepth {
				return l.tooDeep(jsonPath(stack))
			}
			stack = append(stack, frame{object: c == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					stack[n-1].key = ""
				} else {
					stack[n-1].index++
				}
			}
		}
	}
	return nil
}

// jsonPath renders the open frames as a JSON path. Deep paths keep their
// first and last segments: the middle of 128 levels helps nobody.
func jsonPath(stack []frame) string {
	var segs []string
	for _, f := range stack {
		switch {
		case !f.object:
			segs = append(segs, "["+strconv.Itoa(f.index)+"]")
		case f.key == "":
		case isIdent(f.key):
			segs = append(segs, "."+f.key)
		default:
			segs = append(segs, "["+strconv.Quote(f.key)+"]")
		}
	}
	if len(segs) > 12 {
		segs = append(append(segs[:6:6], fmt.Sprintf("…(%d more)…", len(segs)-12)), segs[len(segs)-6:]...)
	}
	return "$" + strings.Join(segs, "")
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

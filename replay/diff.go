package replay

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/internal/jsonvalue"
)

// maxDiffs bounds the differences listed for one request.
const maxDiffs = 20

// differences lists how r departs from e, readably and redacted; empty when
// r matches.
func differences(e *Expectation, r *request) []string {
	var d []string
	if r.method != e.Method {
		d = append(d, fmt.Sprintf("method: want %s, got %s", e.Method, r.method))
	}
	if got := r.url(); got != e.URL {
		d = append(d, fmt.Sprintf("url: want %s, got %s", redactURLPath(e.URL), redactURLPath(got)))
	}
	d = append(d, queryDiffs(e.Query, r.query)...)
	names := make([]string, 0, len(e.Headers))
	for k := range e.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		want := e.Headers[k]
		vs := headerValues(r.header, k)
		ok := len(vs) > 0
		got := strings.Join(vs, ", ")
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("header %s: want %q, got none", k, redactString(k, want)))
		case got != want:
			d = append(d, fmt.Sprintf("header %s: want %q, got %q", k, redactString(k, want), redactString(k, got)))
		}
	}
	d = append(d, bodyDiffs(e.JSON, r.body)...)
	if len(d) > maxDiffs {
		d = append(d[:maxDiffs], fmt.Sprintf("… and %d more differences", len(d)-maxDiffs))
	}
	return d
}

// queryDiffs compares queries as multisets of values per name.
func queryDiffs(want, got map[string][]string) []string {
	names := map[string]bool{}
	for k := range want {
		names[k] = true
	}
	for k := range got {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var d []string
	for _, k := range sorted {
		w, g := sortedCopy(want[k]), sortedCopy(got[k])
		if strings.Join(w, "\x00") == strings.Join(g, "\x00") && len(w) == len(g) {
			continue
		}
		d = append(d, fmt.Sprintf("query %s: want %s, got %s", k, showValues(k, w), showValues(k, g)))
	}
	return d
}

func sortedCopy(vs []string) []string {
	out := append([]string{}, vs...)
	sort.Strings(out)
	return out
}

func showValues(name string, vs []string) string {
	if len(vs) == 0 {
		return "none"
	}
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(redactString(name, v))
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// bodyDiffs compares the body with the declared JSON (nil: must be empty).
func bodyDiffs(want json.RawMessage, body []byte) []string {
	if want == nil {
		if len(body) > 0 {
			return []string{fmt.Sprintf("body: want empty (no json declared), got %d bytes", len(body))}
		}
		return nil
	}
	if len(body) == 0 {
		return []string{"body: want JSON " + show(decodeJSON(want)) + ", got an empty body"}
	}
	if err := bounds.Defaults().CheckJSON(body); err != nil {
		return []string{fmt.Sprintf("body: want JSON %s, got %d bytes out of bounds: %v", show(decodeJSON(want)), len(body), err)}
	}
	if !json.Valid(body) {
		return []string{fmt.Sprintf("body: want JSON %s, got %d bytes that are not JSON", show(decodeJSON(want)), len(body))}
	}
	var d []string
	jsonDiff("body", false, decodeJSON(want), decodeJSON(body), &d)
	return d
}

// jsonDiff appends the differences between typed JSON values w and g at
// path. secret hides both values (the path is under a sensitive name).
func jsonDiff(path string, secret bool, w, g any, d *[]string) {
	if len(*d) > maxDiffs {
		return
	}
	if jsonvalue.Kind(w) != jsonvalue.Kind(g) {
		*d = append(*d, fmt.Sprintf("%s: want %s %s, got %s %s", path, jsonvalue.Kind(w), showSecret(secret, w), jsonvalue.Kind(g), showSecret(secret, g)))
		return
	}
	switch wv := w.(type) {
	case map[string]any:
		gv := g.(map[string]any)
		keys := make([]string, 0, len(wv)+len(gv))
		for k := range wv {
			keys = append(keys, k)
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := path + "." + k
			s := secret || sensitiveName(k)
			wx, inW := wv[k]
			gx, inG := gv[k]
			switch {
			case !inG:
				*d = append(*d, fmt.Sprintf("%s: want %s, got no such key", p, showSecret(s, wx)))
			case !inW:
				*d = append(*d, fmt.Sprintf("%s: unexpected key with %s", p, showSecret(s, gx)))
			default:
				jsonDiff(p, s, wx, gx, d)
			}
		}
	case []any:
		gv := g.([]any)
		if len(wv) != len(gv) {
			*d = append(*d, fmt.Sprintf("%s: want %d items, got %d", path, len(wv), len(gv)))
		}
		for i := 0; i < len(wv) && i < len(gv); i++ {
			jsonDiff(fmt.Sprintf("%s[%d]", path, i), secret, wv[i], gv[i], d)
		}
	case json.Number:
		if !jsonvalue.SameNumber(string(wv), string(g.(json.Number))) {
			*d = append(*d, fmt.Sprintf("%s: want %s, got %s", path, showSecret(secret, w), showSecret(secret, g)))
		}
	default: // string, bool, nil
		if w != g {
			*d = append(*d, fmt.Sprintf("%s: want %s, got %s", path, showSecret(secret, w), showSecret(secret, g)))
		}
	}
}

func showSecret(secret bool, v any) string {
	if secret && v != nil {
		return strconv.Quote(Redacted)
	}
	return show(v)
}

// show renders a JSON value compactly, redacted and shortened.
func show(v any) string {
	b, err := json.Marshal(redactJSON(v))
	if err != nil {
		return "?"
	}
	const max = 160
	if r := []rune(string(b)); len(r) > max {
		return string(r[:max]) + "…"
	}
	return string(b)
}

// headerValues are h's values for name, whatever the case of its keys.
func headerValues(h map[string][]string, name string) []string {
	var out []string
	for k, vs := range h {
		if strings.EqualFold(k, name) {
			out = append(out, vs...)
		}
	}
	return out
}

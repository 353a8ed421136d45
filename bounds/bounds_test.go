package bounds_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/bounds"
)

func TestLimits_CheckJSON(t *testing.T) {
	l := bounds.Limits{MaxDepth: 3, MaxBytes: 100}
	for _, tc := range []struct {
		name, in, wantErr string
	}{
		{"flat", `{"a": 1}`, ""},
		{"at the limit", `{"a": [{"b": 1}]}`, ""},
		{"brackets in strings do not count", `{"a": "[[[[[[{{{{", "b\"[": 1}`, ""},
		{"too deep names the path", `{"q": [1, {"x": {"y": [2]}}]}`, `$.q[1].x: nested more than 3 levels deep (limit: depth 3)`},
		{"quoted key", `{"a b": {"c": {"d": {}}}}`, `$["a b"].c.d: nested more than 3 levels deep (limit: depth 3)`},
		{"too large", `"` + strings.Repeat("x", 100) + `"`, `102 bytes is too large (limit: size 100 bytes)`},
		{"invalid JSON is the decoder's business", `{"a": [}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := l.CheckJSON([]byte(tc.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("CheckJSON(%s) = %q, want %q", tc.in, got, tc.wantErr)
			}
		})
	}
}

func TestLimits_CheckYAML(t *testing.T) {
	l := bounds.Limits{MaxDepth: 3, MaxBytes: 1000}
	for _, tc := range []struct {
		name, in, wantErr string
	}{
		{"flat", "a: 1\nb: 2\n", ""},
		{"at the limit", "a:\n  b:\n    c: 1\n", ""},
		{"block too deep", "a:\n  b:\n    c:\n      d: 1\n", "line 4: nested more than 3 levels deep (limit: depth 3)"},
		{"dashes too deep", "- - - - x\n", "line 1: nested more than 3 levels deep (limit: depth 3)"},
		{"flow too deep", "a: [[[1]]]\n", "line 1: nested more than 3 levels deep (limit: depth 3)"},
		{"brackets in quotes and comments", "a: \"[[[[\" # [[[[\n", ""},
		{"dedent closes levels", "a:\n  b:\n    c: 1\nd:\n  e:\n    f: 1\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := l.CheckYAML([]byte(tc.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Errorf("CheckYAML(%q) = %q, want %q", tc.in, got, tc.wantErr)
			}
		})
	}
}

// TestLimits_Depth100000 is the attack from the fault-injection pass: a
// 200 KB document nested 100,000 levels deep is refused by the scan (which
// is linear; see BenchmarkCheckJSON_Deep), naming the default limit.
func TestLimits_Depth100000(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	var be *bounds.Error
	if err := bounds.Defaults().CheckJSON([]byte(deep)); !errors.As(err, &be) || be.Limit != "depth 128" {
		t.Fatalf("CheckJSON(depth 100000) = %v, want the depth limit", err)
	}
	yaml := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if err := bounds.Defaults().CheckYAML([]byte(yaml)); !errors.As(err, &be) || be.Limit != "depth 128" {
		t.Fatalf("CheckYAML(depth 100000) = %v, want the depth limit", err)
	}
}

func BenchmarkCheckJSON_Deep(b *testing.B) {
	deep := []byte(strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000))
	b.SetBytes(int64(len(deep)))
	for b.Loop() {
		_ = bounds.Defaults().CheckJSON(deep)
	}
}

func BenchmarkCheckJSON_Flat1MiB(b *testing.B) {
	doc := []byte(`{"output": "` + strings.Repeat("answer ", 150000) + `"}`)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if err := bounds.Defaults().CheckJSON(doc); err != nil {
			b.Fatal(err)
		}
	}
}

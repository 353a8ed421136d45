package jsonindent_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/jsonindent"
)

// TestIndent_SameAsEncodingJSON: up to MaxDepth the bytes are json.Indent's.
func TestIndent_SameAsEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		`{}`, `[]`, `1`, `"x"`, ` { "a" : [ 1 , 2 , { } , [ ] ] , "b" : "q\"{,:}[" } `,
		`{"esc":"back\\slash\\","n":null,"t":true,"deep":` + strings.Repeat(`[`, jsonindent.MaxDepth-1) + `1` + strings.Repeat(`]`, jsonindent.MaxDepth-1) + `}`,
	} {
		var want, got bytes.Buffer
		if err := json.Indent(&want, []byte(strings.TrimSpace(doc)), "> ", "\t"); err != nil {
			t.Fatal(err)
		}
		if err := jsonindent.Indent(&got, []byte(doc), "> ", "\t"); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("Indent(%s) =\n%s\nwant\n%s", doc, got.String(), want.String())
		}
	}
	var b bytes.Buffer
	if err := jsonindent.Indent(&b, []byte(`{"a":`), "", " "); err == nil {
		t.Error("invalid JSON was indented")
	}
}

// TestIndent_LinearInDepth: doubling the nesting doubles the output (with
// json.Indent it quadruples), and deeper values stay valid JSON.
func TestIndent_LinearInDepth(t *testing.T) {
	size := func(n int) int {
		doc := strings.Repeat(`{"a":`, n) + `1` + strings.Repeat(`}`, n)
		var b bytes.Buffer
		if err := jsonindent.Indent(&b, []byte(doc), "", "  "); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("depth %d: output is not JSON", n)
		}
		return b.Len()
	}
	small, large := size(1000), size(2000)
	if ratio := float64(large) / float64(small); ratio > 2.1 {
		t.Errorf("output at depth 2000 is %.2f times the output at 1000 (%d vs %d bytes), want about 2", ratio, large, small)
	}
}

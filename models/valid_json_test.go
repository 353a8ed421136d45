package models

import (
	"encoding/json"
	"testing"
)

var validJSONSeeds = []string{
	`{"a":1}`, `[1,2,{"b":"c\u0041"}]`, `01`, `1.`, `-`, "\"\x00\"", `{"a":tru}`, ` {} `, `1e5`, `-0.0e+1`,
	`"\ud800"`, `{"a" :[ ] }`, "\"\xff\"", `[1,]`, `{,}`, `nul`, `"\/"`, "\t1\n", `{"a":1}{}`, `"\u12"`,
	`{"a":1,}`, `[`, ``, ` `, `1e`, `.5`, `+1`, `{"a":"b"`, `"\q"`, `[[[[[]]]]]`, `{"":""}`, "\"a\tb\"",
}

// ValidJSON decides as json.Valid does on every shape the seeds and the
// fuzzer reach (go test -fuzz FuzzValidJSON ./models/).
func FuzzValidJSON(f *testing.F) {
	for _, s := range validJSONSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidJSON(s), json.Valid([]byte(s)); got != want || ValidJSONBytes([]byte(s)) != want {
			t.Fatalf("ValidJSON(%q) = %v; json.Valid says %v", s, got, want)
		}
	})
}

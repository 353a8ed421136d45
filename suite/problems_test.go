package suite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestLoad_SyntaxErrorPosition reports broken JSON at its line and column,
// in suite files and in golden-set lines, so an editor can jump to it.
func TestLoad_SyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		name, suite, golden, want string
	}{
		{"bad key on line 2", "{\"suite\": \"S\",\n  \"agent\": {\"name\": \"A\",}\n}", "",
			"trail.json:2:25: want valid JSON: invalid character '}' looking for beginning of object key string"},
		{"bad literal after a multibyte character", "{\"suite\": \"é\", \"version\": tru}", "",
			"trail.json:1:30: want valid JSON: invalid character '}' in literal true (expecting 'e')"},
		{"cut short", "{\"suite\": \"S\",\n", "", "trail.json:2:1: want valid JSON: unexpected end of JSON input"},
		{"trailing value", "{}\n\n  {}", "", "trail.json:3:3: want a single JSON value, found more after it"},
		{"golden line, indented", `{"suite": "S", "agent": {"name": "A", "command": ["x"]}, "golden_set": "g.jsonl"}`,
			"{\"input\": \"a\", \"expected\": \"b\"}\n\n   {\"input\": tru}\n",
			"g.jsonl:3:17: want valid JSON: invalid character '}' in literal true (expecting 'e')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "trail.json")
			if err := os.WriteFile(path, []byte(tt.suite), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.golden != "" {
				if err := os.WriteFile(filepath.Join(dir, "g.jsonl"), []byte(tt.golden), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(path)
			if err == nil {
				t.Fatal("Load accepted broken JSON")
			}
			want := "load suite: " + tt.want
			if tt.golden == "" {
				want = "load suite: " + filepath.Join(dir, tt.want)
			}
			if got := err.Error(); got != want {
				t.Errorf("error = %q\nwant    %q", got, want)
			}
		})
	}
}

// TestIsIdent: a key is written .key exactly when it matches
// ^[A-Za-z_][A-Za-z0-9_]*$.
func TestIsIdent(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	for _, k := range []string{"", "a", "_", "Z9", "9a", "a-b", "a b", "é", "aé", "a\n", "\na", "minimum_scores", "__", "a.b", "x\x00"} {
		if got, want := isIdent(k), re.MatchString(k); got != want {
			t.Errorf("isIdent(%q) = %v, want %v", k, got, want)
		}
	}
	for b := range 256 {
		for _, k := range []string{string(rune(b)), "a" + string([]byte{byte(b)}), string([]byte{byte(b)})} {
			if got, want := isIdent(k), re.MatchString(k); got != want {
				t.Errorf("isIdent(%q) = %v, want %v", k, got, want)
			}
		}
	}
}

// TestObject_SameWithoutOrder: an object of allowed keys read in one
// Unmarshal is the map the members in file order give (the last of a
// repeated key wins); an unknown key is still reported in file order,
// and a non-object is still refused.
func TestObject_SameWithoutOrder(t *testing.T) {
	allowed := []string{"a", "b", "é"}
	for _, raw := range []string{`{}`, `{"a": 1, "b": [1, {"x": 2}]}`, `{"b": "x", "a": null, "b": "y"}`,
		`{"\u00e9": " spaced " , "a":true}`, `{"z": 1, "a": 2, "y": 3}`, `[1]`, `"a"`, `{"a": 1} {}`} {
		var got, want []Problem
		m := Problems{File: "f", List: &got}.object("p", json.RawMessage(raw), allowed...)
		// the map as members builds it, and its problems
		var ref map[string]json.RawMessage
		ps := Problems{File: "f", List: &want}
		if ms, ok := members(json.RawMessage(raw)); !ok {
			ps.add("p", "want an object, got %s", describe(json.RawMessage(raw)))
		} else {
			ref = map[string]json.RawMessage{}
			for _, mb := range ms {
				if !contains(allowed, mb.key) {
					ps.add(child("p", mb.key), "unknown key (want one of %s)", strings.Join(allowed, ", "))
					continue
				}
				ref[mb.key] = mb.value
			}
		}
		if !reflect.DeepEqual(m, ref) || !reflect.DeepEqual(got, want) {
			t.Errorf("object(%s) = %q, %v; want %q, %v", raw, m, got, ref, want)
		}
	}
}

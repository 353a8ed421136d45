package suite

import (
	"os"
	"path/filepath"
	"regexp"
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

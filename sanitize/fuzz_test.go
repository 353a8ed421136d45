package sanitize_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/sanitize"
)

// FuzzJSON_PostgresJSONB is the sanitizer's property: whatever the text,
// inside a JSON document or as a Go string, the sanitized document is
// accepted by real PostgreSQL jsonb, round-trips to the same value, and a
// second pass changes nothing. The seed corpus runs with every `go test`.
func FuzzJSON_PostgresJSONB(f *testing.F) {
	for _, s := range []string{
		`ok\ud800`, `\udc00`, `\ud83d\ude00`, `\u0000`, "a\x00b", "\xff\xfe", "\xed\xa0\x80",
		`\\ud800`, `Authorization: Bearer abc`, `api_key=xyz`, `sk-abcdefghijklmnop`, `"`, `\`, `\u12`, "",
	} {
		f.Add(s)
	}
	db := testdb.Postgres(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, s string) {
		inDoc := []byte(`{"output":"` + s + `","actions":["` + s + `"]}`)
		fromGo, _ := sanitize.Value(map[string]any{"metadata": s, s: "x"})
		goDoc, err := json.Marshal(fromGo)
		if err != nil {
			t.Fatalf("marshal sanitized value: %v", err)
		}
		for _, doc := range [][]byte{inDoc, goDoc} {
			out, _ := sanitize.JSON(doc)
			if again, rep := sanitize.JSON(out); rep.Changed() || !bytes.Equal(again, out) {
				t.Fatalf("second pass changed %q to %q (%+v)", out, again, rep)
			}
			var stored string
			if err := db.DB.QueryRowContext(ctx, `SELECT ?::jsonb::text`, string(out)).Scan(&stored); err != nil {
				t.Fatalf("jsonb refused sanitized %q (from %q): %v", out, doc, err)
			}
			var want, got any
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatalf("sanitized output is not JSON: %q: %v", out, err)
			}
			if err := json.Unmarshal([]byte(stored), &got); err != nil {
				t.Fatalf("jsonb text is not JSON: %q: %v", stored, err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("round trip: stored %q, read back %q", out, stored)
			}
		}
	})
}

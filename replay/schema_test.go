package replay_test

import (
	"bytes"
	"encoding/json"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentevals-go/agentevals/replay"
)

// TestJSONSchema_AgreesWithLoad: declarations Load accepts validate, and
// the structural mistakes Load rejects are rejected by the schema too.
func TestJSONSchema_AgreesWithLoad(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(replay.JSONSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("fixtures.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("fixtures.schema.json")
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	dir := t.TempDir()
	testfile.Write(t, dir, "ok.json", `{"ok": true}`)
	const req = `"expect_request": {"method": "GET", "url": "https://a.example/"}`
	for _, tc := range []struct {
		raw  string
		good bool
	}{
		{`[{` + req + `, "respond_with": {"json": null}}]`, true},
		{`{"allow_hosts": ["api.openai.com", "localhost:8080"], "interactions": [{"expect_request": {"method": "post", "url": "http://a.example:8080/x?y=1",
		   "query": {"t": ["1", 2, true]}, "json": {"n": 1}, "headers": {"X-A": "1"}}, "respond_with": {"status": 201, "headers": {"X-B": "2"}, "body_file": "ok.json"}}]}`, true},
		{`[]`, true},
		{`[{` + req + `, "respond_with": {"json": 1, "body_file": "ok.json"}}]`, false},
		{`[{` + req + `, "respond_with": {"status": 200}}]`, false},
		{`[{` + req + `}]`, false},
		{`[{"expect_request": {"method": "FETCH", "url": "https://a.example/"}, "respond_with": {"json": 1}}]`, false},
		{`[{"expect_request": {"method": "GET", "url": "/relative"}, "respond_with": {"json": 1}}]`, false},
		{`[{` + req + `, "respond_with": {"status": 204, "json": 1}}]`, false},
		{`{"allow_hosts": ["*.openai.com"]}`, false},
		{`{"interaction": []}`, false},
		{`[{"expect_request": {"method": "GET", "url": "https://a.example/", "query": {"a": {"b": 1}}}, "respond_with": {"json": 1}}]`, false},
	} {
		_, loadErr := replay.Load(json.RawMessage(tc.raw), dir)
		if (loadErr == nil) != tc.good {
			t.Fatalf("Load(%s) = %v; the table expects good=%v", tc.raw, loadErr, tc.good)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); (err == nil) != tc.good {
			t.Errorf("schema on %s: %v, want valid=%v", tc.raw, err, tc.good)
		}
	}
}

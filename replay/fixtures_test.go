package replay_test

import (
	"encoding/json"
	"errors"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

// MustLoad loads fixtures or fails the test.
func MustLoad(tb testing.TB, raw, dir string) *replay.Fixtures {
	tb.Helper()
	fx, err := replay.Load(json.RawMessage(raw), dir)
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return fx
}

func TestLoad_Forms(t *testing.T) {
	dir := t.TempDir()
	fileBody := []byte("{ \"status\" :  \"ready\" }\n")
	testfile.Write(t, dir, "fixtures/order.json", string(fileBody))

	fx := MustLoad(t, `{"allow_hosts": ["API.OpenAI.com", "localhost:8080"],
	  "interactions": [
	    {"expect_request": {"method": "get", "url": "HTTPS://Shipping.Example:443/orders?id=42", "query": {"tag": ["a", "b"], "n": 1, "ok": true}},
	     "respond_with": {"body_file": "fixtures/order.json"}},
	    {"expect_request": {"method": "POST", "url": "http://shipping.example:8080", "json": null, "headers": {"x-region": "eu"}},
	     "respond_with": {"status": 201, "headers": {"content-type": "application/json"}, "json": { "a" : [1, 2] }}}]}`, dir)

	if got, want := strings.Join(fx.AllowHosts, ","), "api.openai.com,localhost:8080"; got != want {
		t.Errorf("AllowHosts = %q, want %q", got, want)
	}
	first, second := fx.Interactions[0], fx.Interactions[1]
	for _, c := range []struct{ name, got, want string }{
		{"method", first.Request.Method, "GET"},
		{"url", first.Request.URL, "https://shipping.example/orders"},
		{"query", first.Request.Query.Encode(), "id=42&n=1&ok=true&tag=a&tag=b"},
		{"file body", string(first.Response.Body), string(fileBody)},
		{"second url", second.Request.URL, "http://shipping.example:8080/"},
		{"null json", string(second.Request.JSON), "null"},
		{"header", second.Request.Headers["X-Region"], "eu"},
		{"inline body", string(second.Response.Body), `{"a":[1,2]}`},
		{"response header", second.Response.Headers["Content-Type"], "application/json"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if first.Request.JSON != nil {
		t.Errorf("absent json = %q, want nil", first.Request.JSON)
	}
	if got, want := first.Response.Status, 200; got != want {
		t.Errorf("default status = %d, want %d", got, want)
	}
	if got, want := second.Response.Status, 201; got != want {
		t.Errorf("status = %d, want %d", got, want)
	}

	list := MustLoad(t, `[{"expect_request": {"method": "GET", "url": "https://a.example/x"}, "respond_with": {"json": 1}}]`, dir)
	if got, want := len(list.Interactions), 1; got != want {
		t.Fatalf("list form: %d interactions, want %d", got, want)
	}
	if got := len(list.AllowHosts); got != 0 {
		t.Errorf("list form allows %d hosts, want none", got)
	}
	if none, err := replay.Load(json.RawMessage(`null`), dir); none != nil || err != nil {
		t.Errorf("Load(null) = %v, %v; want nil, nil", none, err)
	}
}

func TestLoad_Errors(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "bad.json", "{not json")
	testfile.Write(t, dir, "latin1.json", "\"caf\xe9\"")
	testfile.Write(t, dir, "ok.json", `{"ok": true}`)
	const req = `"expect_request": {"method": "GET", "url": "https://a.example/"}`
	for _, tc := range []struct {
		name, raw, path, expected string
	}{
		{"not an object", `"x"`, "api_interactions", "list of interactions"},
		{"unknown top key", `{"interaction": []}`, "api_interactions.interaction", "unknown key"},
		{"interactions not list", `{"interactions": {}}`, "api_interactions.interactions", "a list of interactions"},
		{"missing respond_with", `[{` + req + `}]`, "api_interactions[0].respond_with", "missing"},
		{"missing expect_request", `[{"respond_with": {"json": 1}}]`, "api_interactions[0].expect_request", "missing"},
		{"bad method", `[{"expect_request": {"method": "FETCH", "url": "https://a.example/"}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.method", "one of GET"},
		{"missing method", `[{"expect_request": {"url": "https://a.example/"}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.method", "one of GET"},
		{"relative url", `[{"expect_request": {"method": "GET", "url": "/orders"}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.url", "absolute http or https URL"},
		{"ftp url", `[{"expect_request": {"method": "GET", "url": "ftp://a.example/"}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.url", "absolute http or https URL"},
		{"url with credentials", `[{"expect_request": {"method": "GET", "url": "https://u:p@a.example/"}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.url", "without credentials"},
		{"url not a string", `[{"expect_request": {"method": "GET", "url": 3}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.url", "URL string"},
		{"query object value", `[{"expect_request": {"method": "GET", "url": "https://a.example/", "query": {"a": {"b": 1}}}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.query.a", "string, number or boolean"},
		{"header not string", `[{"expect_request": {"method": "GET", "url": "https://a.example/", "headers": {"X-A": 1}}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.headers.X-A", "single-line string"},
		{"duplicate header", `[{"expect_request": {"method": "GET", "url": "https://a.example/", "headers": {"X-A": "1", "x-a": "2"}}, "respond_with": {"json": 1}}]`, "api_interactions[0].expect_request.headers.", "each header name once"},
		{"two body sources", `[{` + req + `, "respond_with": {"json": 1, "body_file": "ok.json"}}]`, "api_interactions[0].respond_with", "not both"},
		{"no body source", `[{` + req + `, "respond_with": {"status": 200}}]`, "api_interactions[0].respond_with", "neither given"},
		{"missing body file", `[{` + req + `, "respond_with": {"body_file": "nope.json"}}]`, "api_interactions[0].respond_with.body_file", "a readable file"},
		{"invalid json file", `[{` + req + `, "respond_with": {"body_file": "bad.json"}}]`, "api_interactions[0].respond_with.body_file", "invalid JSON"},
		{"non-utf8 file", `[{` + req + `, "respond_with": {"body_file": "latin1.json"}}]`, "api_interactions[0].respond_with.body_file", "invalid UTF-8"},
		{"bad status", `[{` + req + `, "respond_with": {"status": 99, "json": 1}}]`, "api_interactions[0].respond_with.status", "between 200 and 599"},
		{"204 status", `[{` + req + `, "respond_with": {"status": 204, "json": 1}}]`, "api_interactions[0].respond_with.status", "not 204"},
		{"content-length header", `[{` + req + `, "respond_with": {"headers": {"content-length": "3"}, "json": 1}}]`, "api_interactions[0].respond_with.headers.content-length", "no Content-Length"},
		{"unknown respond key", `[{` + req + `, "respond_with": {"body": "x"}}]`, "api_interactions[0].respond_with.body", "unknown key"},
		{"wildcard host", `{"allow_hosts": ["*.openai.com"]}`, "api_interactions.allow_hosts[0]", "exact host name"},
		{"host with scheme", `{"allow_hosts": ["https://api.openai.com"]}`, "api_interactions.allow_hosts[0]", "exact host name"},
		{"second interaction", `{"interactions": [{` + req + `, "respond_with": {"json": 1}}, {` + req + `, "respond_with": {"json": 1, "body_file": "ok.json"}}]}`, "api_interactions.interactions[1].respond_with", "not both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx, err := replay.Load(json.RawMessage(tc.raw), dir)
			var fe *replay.FixtureError
			if !errors.As(err, &fe) {
				t.Fatalf("Load = %v, %v; want a *FixtureError", fx, err)
			}
			if !strings.HasPrefix(fe.Path, tc.path) {
				t.Errorf("Path = %q, want prefix %q", fe.Path, tc.path)
			}
			if !strings.Contains(fe.Error(), tc.expected) {
				t.Errorf("Error() = %q, want it to mention %q", fe.Error(), tc.expected)
			}
		})
	}
}

func TestFixtures_Definition(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "a.json", `{"x": 1}`)
	testfile.Write(t, dir, "b.json", `{"x": 1}`)
	testfile.Write(t, dir, "spaced.json", `{"x":  1}`)
	def := func(raw string) string {
		t.Helper()
		b, err := json.Marshal(MustLoad(t, raw, dir).Definition())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const base = `{"allow_hosts": ["b.example", "a.example"], "interactions": [{"expect_request": {"method": "POST", "url": "https://a.example/x", "query": {"t": ["2", "1"]}, "json": {"n": 1}, "headers": {"X-A": "1"}}, "respond_with": {"status": 201, "headers": {"X-B": "2"}, "body_file": "a.json"}}]}`
	same := map[string]string{
		"other body file with the same bytes": strings.Replace(base, "a.json", "b.json", 1),
		"hosts reordered":                     strings.Replace(base, `"b.example", "a.example"`, `"a.example", "b.example"`, 1),
		"query values reordered":              strings.Replace(base, `["2", "1"]`, `["1", "2"]`, 1),
		"header name case":                    strings.Replace(base, `"X-A"`, `"x-a"`, 1),
		"method case":                         strings.Replace(base, `"POST"`, `"post"`, 1),
	}
	differ := map[string]string{
		"body bytes (whitespace)": strings.Replace(base, "a.json", "spaced.json", 1),
		"status":                  strings.Replace(base, "201", "200", 1),
		"response header":         strings.Replace(base, `"X-B": "2"`, `"X-B": "3"`, 1),
		"request json type":       strings.Replace(base, `{"n": 1}`, `{"n": "1"}`, 1),
		"allowed hosts":           strings.Replace(base, `"b.example", `, ``, 1),
		"query multiplicity":      strings.Replace(base, `["2", "1"]`, `["2", "1", "1"]`, 1),
		"url":                     strings.Replace(base, "/x", "/y", 1),
	}
	want := def(base)
	for name, raw := range same {
		if got := def(raw); got != want {
			t.Errorf("%s changed the definition:\n got %s\nwant %s", name, got, want)
		}
	}
	for name, raw := range differ {
		if got := def(raw); got == want {
			t.Errorf("%s did not change the definition %s", name, got)
		}
	}
	var nilFx *replay.Fixtures
	if got := nilFx.Definition(); got != nil {
		t.Errorf("nil Definition = %v, want nil", got)
	}
}

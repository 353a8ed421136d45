package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Evidence is what a session saw, for response_metadata.api_replay (the
// record is models.APIReplay). Every credential it could recognise is
// redacted.
type Evidence = models.APIReplay

// The parts of Evidence.
type (
	DeclaredInteraction = models.APIReplayDeclared
	DeclaredResponse    = models.APIReplayResponse
	ObservedRequest     = models.APIReplayRequest
	MissingRequest      = models.APIReplayMissing
)

// Redacted replaces every credential value.
const Redacted = sanitize.Redacted

// Redaction is the sanitizer's (package sanitize): one redactor for replay
// evidence and every other stored or shown string.
var sensitiveName = sanitize.SensitiveName

func redactString(name, v string) string { return sanitize.Field(name, v) }

func redactText(s string) string { return sanitize.String(s) }

// redactJSON replaces sensitive fields and secret-looking strings in v.
// Evidence is stricter than answers: any value (not only strings) under a
// sensitive name is hidden, since a declared fixture could hold, say, a
// numeric PIN.
func redactJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if sensitiveName(k) && x != nil {
				out[k] = Redacted
			} else {
				out[k] = redactJSON(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = redactJSON(x)
		}
		return out
	default:
		out, _ := sanitize.Value(v)
		return out
	}
}

// redactedJSON is raw (valid JSON) with credentials redacted.
func redactedJSON(raw []byte) json.RawMessage {
	b, err := json.Marshal(redactJSON(decodeJSON(raw)))
	if err != nil {
		return json.RawMessage(`"` + Redacted + `"`)
	}
	return b
}

// evidenceJSON is a body for the evidence: redacted, with its numbers as
// float64 values, as evidence has always been stored.
func evidenceJSON(raw []byte) json.RawMessage {
	b := redactedJSON(raw)
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	if f, err := json.Marshal(v); err == nil {
		return f
	}
	return b
}

func redactValues(q url.Values) map[string][]string {
	if len(q) == 0 {
		return nil
	}
	out := make(map[string][]string, len(q))
	for k, vs := range q {
		r := make([]string, len(vs))
		for i, v := range vs {
			r[i] = redactString(k, v)
		}
		sort.Strings(r)
		out[k] = r
	}
	return out
}

func redactHeaderMap(h map[string]string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[strings.ToLower(k)] = redactString(k, v)
	}
	return out
}

// hopHeaders are connection-level headers left out of evidence.
var hopHeaders = map[string]bool{
	"Connection": true, "Proxy-Connection": true, "Keep-Alive": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "Content-Length": true, "Proxy-Authorization": true,
}

// redactURLPath drops any query and hides path segments that look secret.
func redactURLPath(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		u = u[:i]
	}
	parts := strings.Split(u, "/")
	for i, p := range parts {
		if i > 2 && sanitize.SecretValue(p) {
			parts[i] = Redacted
		}
	}
	return strings.Join(parts, "/")
}

// observe describes r for the evidence, redacted.
func observe(r *request) ObservedRequest {
	o := ObservedRequest{Method: r.method, URL: redactURLPath(r.url()), Query: redactValues(r.query), BodyBytes: len(r.body)}
	h := map[string]string{}
	for k, vs := range r.header {
		if !hopHeaders[http.CanonicalHeaderKey(k)] {
			h[k] = strings.Join(vs, ", ")
		}
	}
	o.Headers = redactHeaderMap(h)
	if len(r.body) > 0 && !r.tooLarge {
		if json.Valid(r.body) {
			o.JSON = evidenceJSON(r.body)
		} else if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
			if form, err := url.ParseQuery(string(r.body)); err == nil {
				o.Form = redactValues(form)
			}
		}
	}
	return o
}

// declared describes interaction i for the evidence, redacted.
func declared(i int, in *Interaction, consumed bool) DeclaredInteraction {
	sum := sha256.Sum256(in.Response.Body)
	d := DeclaredInteraction{
		Interaction: i, Method: in.Request.Method, URL: redactURLPath(in.Request.URL),
		Query: redactValues(in.Request.Query), Headers: redactHeaderMap(in.Request.Headers),
		Response: DeclaredResponse{
			Status: in.Response.Status, Headers: redactHeaderMap(in.Response.Headers),
			BodyBytes: len(in.Response.Body), BodySHA256: hex.EncodeToString(sum[:]), BodyFile: in.Response.BodyFile,
		},
		Consumed: consumed,
	}
	if in.Request.JSON != nil {
		d.JSON = evidenceJSON(in.Request.JSON)
	}
	return d
}

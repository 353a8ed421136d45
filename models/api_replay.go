package models

import (
	"bytes"
	"encoding/json"
	"strings"
)

// APIReplay is response_metadata.api_replay: what a case's strict API
// replay session saw (package replay writes it). Every credential it could
// recognise is redacted. Fields are in the order of their JSON names, as
// the evidence has always been stored with its keys sorted.
//
// Evidence read from a row is read leniently, for rows written by another
// implementation: a field of an unexpected type reads as its zero value,
// and evidence in a shape this record does not describe reads as Unknown.
// Evidence read is written back as it was read (Raw).
type APIReplay struct {
	AllowHosts []string            `json:"allow_hosts"`
	Declared   []APIReplayDeclared `json:"declared"`
	// Dropped counts observed requests beyond the kept maximum.
	Dropped int                `json:"dropped,omitempty"`
	Error   string             `json:"error,omitempty"`
	Missing []APIReplayMissing `json:"missing"`
	// Observed are the requests the agent made, in order.
	Observed []APIReplayRequest `json:"observed"`
	Passed   bool               `json:"passed"`

	// PassedUnknown says the evidence was read without a readable passed.
	PassedUnknown bool `json:"-"`
	// Raw is the evidence as it was read; nil for evidence built here.
	Raw json.RawMessage `json:"-"`
	// Unknown says the evidence read has another shape (not an object, or
	// one with none of declared, observed and missing); GemEmpty that it
	// is the Ruby gem's record of a replay that declared and saw nothing
	// ({"interactions": []}).
	Unknown, GemEmpty bool `json:"-"`
}

// ReplayStatus is what became of one observed request.
type ReplayStatus string

// APIReplayDeclared is one fixture as declared, and whether it was used.
type APIReplayDeclared struct {
	Consumed    bool                `json:"consumed"`
	Headers     map[string]string   `json:"headers,omitempty"`
	Interaction int                 `json:"interaction"`
	JSON        json.RawMessage     `json:"json,omitempty"` // "null" is a declared null body
	Method      string              `json:"method"`
	Query       map[string][]string `json:"query,omitempty"`
	Response    APIReplayResponse   `json:"response"`
	URL         string              `json:"url"`
}

// APIReplayResponse summarizes a declared reply: its body by size and hash.
type APIReplayResponse struct {
	BodyBytes  int               `json:"body_bytes"`
	BodyFile   string            `json:"body_file,omitempty"`
	BodySHA256 string            `json:"body_sha256"`
	Headers    map[string]string `json:"headers,omitempty"`
	Status     int               `json:"status"`
}

// APIReplayRequest is one request the agent made and what replay did.
type APIReplayRequest struct {
	BodyBytes   int      `json:"body_bytes"`
	Differences []string `json:"differences,omitempty"`
	Error       string   `json:"error,omitempty"`
	// JSON is the body when it parsed as JSON; Form when it was a form.
	Form        map[string][]string `json:"form,omitempty"`
	Headers     map[string]string   `json:"headers,omitempty"`
	Interaction *int                `json:"interaction,omitempty"` // the declaration compared
	JSON        json.RawMessage     `json:"json,omitempty"`
	Method      string              `json:"method"`
	Query       map[string][]string `json:"query,omitempty"`
	// ResponseStatus is the replayed (or, when allowed, real) status code.
	ResponseStatus int          `json:"response_status,omitempty"`
	Status         ReplayStatus `json:"status"`
	URL            string       `json:"url"` // scheme://host/path, no query

	// Foreign is a request read by APIReplay in another shape (not an
	// object).
	Foreign json.RawMessage `json:"-"`
}

// APIReplayMissing is a declaration the agent never made.
type APIReplayMissing struct {
	// Interaction is the declaration's index; -1 when evidence read
	// without one.
	Interaction int    `json:"interaction"`
	Method      string `json:"method"`
	URL         string `json:"url"`
	// Query is only ever read (from evidence of another writer).
	Query map[string][]string `json:"query,omitempty"`

	// Foreign is a declaration read by APIReplay in another shape (not an
	// object).
	Foreign json.RawMessage `json:"-"`
}

// plainAPIReplay encodes the record field by field.
type plainAPIReplay APIReplay

// MarshalJSON writes the evidence: Raw when it was read.
func (e APIReplay) MarshalJSON() ([]byte, error) {
	if e.Raw != nil {
		return e.Raw, nil
	}
	return json.Marshal(plainAPIReplay(e))
}

// UnmarshalJSON reads evidence leniently (see APIReplay): it never fails.
func (e *APIReplay) UnmarshalJSON(b []byte) error {
	*e = APIReplay{Raw: append(json.RawMessage{}, b...)}
	var f lenient
	if json.Unmarshal(b, &f) != nil || f == nil {
		e.Unknown = true
		return nil
	}
	if len(f) == 1 && isEmptyList(f["interactions"]) {
		e.Unknown, e.GemEmpty = true, true
		return nil
	}
	if f["declared"] == nil && f["observed"] == nil && f["missing"] == nil {
		e.Unknown = true
		return nil
	}
	_ = json.Unmarshal(f["allow_hosts"], &e.AllowHosts)
	for _, raw := range f.list("declared") {
		var d APIReplayDeclared
		_ = json.Unmarshal(raw, &d) // only counted when read
		e.Declared = append(e.Declared, d)
	}
	e.Dropped, _ = f.num("dropped")
	e.Error = f.str("error")
	for _, raw := range f.list("missing") {
		e.Missing = append(e.Missing, readMissing(raw))
	}
	for _, raw := range f.list("observed") {
		e.Observed = append(e.Observed, readRequest(raw))
	}
	e.PassedUnknown = json.Unmarshal(f["passed"], &e.Passed) != nil
	return nil
}

func readRequest(raw json.RawMessage) APIReplayRequest {
	var f lenient
	if json.Unmarshal(raw, &f) != nil || f == nil {
		return APIReplayRequest{Foreign: raw}
	}
	r := APIReplayRequest{Method: f.str("method"), URL: f.str("url"), Query: f.query("query"),
		Status: ReplayStatus(f.str("status")), Differences: f.texts("differences"), Error: f.str("error")}
	if n, ok := f.num("interaction"); ok {
		r.Interaction = &n
	}
	r.BodyBytes, _ = f.num("body_bytes")
	r.ResponseStatus, _ = f.num("response_status")
	_ = json.Unmarshal(f["headers"], &r.Headers)
	_ = json.Unmarshal(f["form"], &r.Form)
	r.JSON = f["json"]
	return r
}

func readMissing(raw json.RawMessage) APIReplayMissing {
	var f lenient
	if json.Unmarshal(raw, &f) != nil || f == nil {
		return APIReplayMissing{Interaction: -1, Foreign: raw}
	}
	m := APIReplayMissing{Interaction: -1, Method: f.str("method"), URL: f.str("url"), Query: f.query("query")}
	if n, ok := f.num("interaction"); ok {
		m.Interaction = n
	}
	return m
}

// lenient is a JSON object read one key at a time, so that a field of an
// unexpected type is skipped instead of failing the whole object.
type lenient map[string]json.RawMessage

func (f lenient) str(k string) string {
	var s string
	if json.Unmarshal(f[k], &s) != nil {
		return ""
	}
	return s
}

func (f lenient) num(k string) (int, bool) {
	var n float64
	if json.Unmarshal(f[k], &n) != nil {
		return 0, false
	}
	return int(n), true
}

func (f lenient) list(k string) []json.RawMessage {
	var l []json.RawMessage
	if json.Unmarshal(f[k], &l) != nil {
		return nil
	}
	return l
}

// texts reads a list of strings; other elements read as their compact JSON.
func (f lenient) texts(k string) []string {
	var out []string
	for _, raw := range f.list(k) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = compactText(raw)
		}
		out = append(out, s)
	}
	return out
}

// query reads a query object ({"name": "v" or ["v", …]}); a value that is
// not a list of values reads as one value, its JSON text unquoted.
func (f lenient) query(k string) map[string][]string {
	var q map[string]json.RawMessage
	if json.Unmarshal(f[k], &q) != nil || len(q) == 0 {
		return nil
	}
	out := make(map[string][]string, len(q))
	for name, raw := range q {
		vs := lenient{"v": raw}.texts("v")
		if vs == nil {
			vs = []string{strings.Trim(compactText(raw), `"`)}
		}
		out[name] = vs
	}
	return out
}

// compactText is raw without insignificant whitespace.
func compactText(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// isEmptyList reports whether raw is the JSON array [].
func isEmptyList(raw json.RawMessage) bool {
	var list []json.RawMessage
	return raw != nil && raw[0] == '[' && json.Unmarshal(raw, &list) == nil && len(list) == 0
}
